package dev.streamhouse.testing.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class KafkaExtensionTest {
    @RegisterExtension
    static final KafkaExtension KAFKA = new KafkaExtension();

    @Test
    void recordsSentAreReadBackAndSurviveARestartOfTheBroker() throws Exception {
        KAFKA.createTopic("events", 2);
        KAFKA.send("events", 0, List.of(Map.entry("k1", "v1"), Map.entry("k2", "v2")));
        KAFKA.send("events", 1, List.of(Map.entry("k3", "v3")));

        KAFKA.stopBroker();
        KAFKA.startBroker();

        List<ConsumerRecord<String, String>> records = KAFKA.readAll("events");
        assertThat(records).extracting(r -> r.partition() + ":" + r.offset() + ":" + r.key() + "=" + r.value())
                .containsExactlyInAnyOrder("0:0:k1=v1", "0:1:k2=v2", "1:0:k3=v3");
    }

    @Test
    void creatingATopicTwiceFailsNamingIt() {
        KAFKA.createTopic("once", 1);
        assertThatThrownBy(() -> KAFKA.createTopic("once", 1)).hasMessageContaining("once");
    }
}
