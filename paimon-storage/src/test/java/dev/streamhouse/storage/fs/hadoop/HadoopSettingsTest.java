package dev.streamhouse.storage.fs.hadoop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.options.Options;

import java.nio.file.Files;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HadoopSettingsTest {
    @TempDir
    java.nio.file.Path dir;

    private void site(String name, String key, String value) throws Exception {
        Files.writeString(dir.resolve(name), "<?xml version=\"1.0\"?><configuration><property><name>" + key
                + "</name><value>" + value + "</value></property></configuration>");
    }

    @Test
    void confDirThenHadoopPrefixThenFsOptions() throws Exception {
        site("core-site.xml", "fs.defaultFS", "hdfs://nn:8020");
        site("hdfs-site.xml", "dfs.replication", "2");
        HadoopSettings settings = HadoopSettings.fromOptions(new Options(Map.of(
                "hadoop-conf-dir", dir.toString(),
                "hadoop.dfs.replication", "3",
                "hadoop.fs.trash.interval", "5",
                "fs.trash.interval", "7",
                "bucket", "4")), key -> null);
        assertThat(settings.entries()).containsEntry("fs.defaultFS", "hdfs://nn:8020")
                .containsEntry("dfs.replication", "3")
                .containsEntry("fs.trash.interval", "7")
                .doesNotContainKey("bucket")
                .doesNotContainKey("hadoop-conf-dir");
        assertThat(settings.toConfiguration().get("dfs.replication")).isEqualTo("3");
    }

    @Test
    void environmentNamesTheConfDirWhenTheOptionDoesNot() throws Exception {
        site("core-site.xml", "fs.defaultFS", "hdfs://from-env:8020");
        HadoopSettings viaConfDir = HadoopSettings.fromOptions(new Options(Map.of()),
                key -> key.equals("HADOOP_CONF_DIR") ? dir.toString() : null);
        assertThat(viaConfDir.get("fs.defaultFS")).isEqualTo("hdfs://from-env:8020");

        Files.createDirectories(dir.resolve("home/etc/hadoop"));
        Files.writeString(dir.resolve("home/etc/hadoop/core-site.xml"), Files.readString(dir.resolve("core-site.xml")));
        HadoopSettings viaHome = HadoopSettings.fromOptions(new Options(Map.of()),
                key -> key.equals("HADOOP_HOME") ? dir.resolve("home").toString() : null);
        assertThat(viaHome.get("fs.defaultFS")).isEqualTo("hdfs://from-env:8020");
    }

    @Test
    void aConfDirThatIsNoDirectoryIsRefusedNamingTheOption() {
        assertThatThrownBy(() -> HadoopSettings.fromOptions(new Options(Map.of("hadoop-conf-dir", "/no/such/dir")),
                key -> null)).hasMessageContaining("'hadoop-conf-dir' = '/no/such/dir' is not a directory");
    }

    @Test
    void showsKeysButNeverValues() {
        HadoopSettings settings = HadoopSettings.of(Map.of("fs.s3a.secret.key", "very-secret"));
        assertThat(settings.toString()).contains("fs.s3a.secret.key").doesNotContain("very-secret");
    }
}
