package dev.streamhouse.flink.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** S3 settings in Flink's configuration apply to a catalog that does not set them itself. */
class FlinkCatalogFactoryS3ConfigurationTest {
    @Test
    void flinkConfigurationFillsInS3SettingsTheCatalogLeavesOpen() {
        Map<String, String> merged = FlinkCatalogFactory.withS3Configuration(
                Map.of("warehouse", "s3://b/wh", "s3.endpoint", "http://catalog"),
                Map.of("s3.endpoint", "http://flink", "s3.access-key", "ak", "fs.s3a.connection.maximum", "64",
                        "s3a.path.style.access", "true", "parallelism.default", "4", "fs.default-scheme", "file:///"));
        assertThat(merged).containsEntry("s3.endpoint", "http://catalog")
                .containsEntry("s3.access-key", "ak")
                .containsEntry("fs.s3a.connection.maximum", "64")
                .containsEntry("s3a.path.style.access", "true")
                .doesNotContainKeys("parallelism.default", "fs.default-scheme");
    }
}
