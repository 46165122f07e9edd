package dev.streamhouse.fs.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.catalog.CatalogFactory;
import dev.streamhouse.storage.options.Options;

import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Opening an S3 warehouse with wrong credentials or a missing bucket says so, without showing secrets. */
class S3WarehouseErrorsTest {
    @RegisterExtension
    static final S3ProxyExtension S3 = new S3ProxyExtension();

    @Test
    void wrongCredentialsAreReportedWithoutTheSecret() {
        Map<String, String> options = new TreeMap<>(S3.catalogOptions("wh"));
        options.put("s3.secret-key", "not-the-secret-at-all");
        assertThatThrownBy(() -> CatalogFactory.createCatalog(new Options(options)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Cannot create catalog")
                .hasMessageContaining("denied access")
                .hasMessageContaining("'s3.access-key' and 's3.secret-key'")
                .hasMessageNotContaining("not-the-secret-at-all")
                .hasMessageNotContaining(S3ProxyExtension.SECRET_KEY)
                // What Flink's SQL client shows is the root cause: it must be this message, not the S3 client's 403.
                .satisfies(e -> assertThat(org.assertj.core.util.Throwables.getRootCause(e))
                        .hasMessageContaining("denied access"));
    }

    @Test
    void aMissingBucketIsNamed() {
        Map<String, String> options = new TreeMap<>(S3.catalogOptions("wh"));
        options.put("warehouse", "s3://no-such-bucket-here/wh");
        assertThatThrownBy(() -> CatalogFactory.createCatalog(new Options(options)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bucket 'no-such-bucket-here' does not exist at the S3 store " + S3.endpoint())
                .satisfies(e -> assertThat(org.assertj.core.util.Throwables.getRootCause(e))
                        .hasMessageContaining("does not exist"));
    }

    @Test
    void aLocationWithoutBucketIsRefused() {
        Map<String, String> options = new TreeMap<>(S3.catalogOptions("wh"));
        options.put("warehouse", "s3:///wh");
        assertThatThrownBy(() -> CatalogFactory.createCatalog(new Options(options)))
                .hasMessageContaining("an S3 location names its bucket");
    }
}
