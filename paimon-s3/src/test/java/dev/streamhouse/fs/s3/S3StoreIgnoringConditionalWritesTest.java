package dev.streamhouse.fs.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.CatalogFactory;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.FileIOs;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.testutils.TestTables;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A store that accepts {@code If-None-Match: *} and overwrites anyway: opening the warehouse finds out,
 * and every commit is refused (naming the store and the way out) instead of risking two snapshots
 * with one id.
 */
class S3StoreIgnoringConditionalWritesTest {
    @RegisterExtension
    static final S3ProxyExtension S3 = S3ProxyExtension.ignoringConditionalWrites();

    @Test
    void theStoreReallyOverwrites() throws Exception {
        // The premise: without the check, a second "conditional" write would win too.
        FileIO io = FileIOs.forPath(new Path(S3.uri("premise")), new Options(S3.s3Options()));
        S3FileIO s3 = (S3FileIO) io;
        Path file = new Path(S3.uri("premise/snapshot-1"));
        assertThat(s3.putIfAbsent(file, "a".getBytes(StandardCharsets.UTF_8))).isTrue();
        assertThat(s3.putIfAbsent(file, "b".getBytes(StandardCharsets.UTF_8))).isTrue();
        assertThat(io.readUtf8(file)).isEqualTo("b");
    }

    @Test
    void commitsAreRefusedNamingTheStoreWhileFilesStayReadable() throws Exception {
        FileIO io = FileIOs.forPath(new Path(S3.uri("refused")), new Options(S3.s3Options()));
        Path snapshot = new Path(S3.uri("refused/snapshot/snapshot-1"));
        assertThatThrownBy(() -> io.createIfAbsent(snapshot, "x".getBytes(StandardCharsets.UTF_8)))
                .hasMessageContaining("ignores conditional writes")
                .hasMessageContaining(S3.endpoint())
                .hasMessageContaining(S3.bucket())
                .hasMessageContaining("lock.enabled");
        assertThat(io.exists(snapshot)).isFalse();

        Path data = new Path(S3.uri("refused/data-1.parquet"));
        io.overwrite(data, "bytes".getBytes(StandardCharsets.UTF_8));
        assertThat(io.readUtf8(data)).isEqualTo("bytes");
    }

    @Test
    void creatingATableInSuchAWarehouseFailsBeforeAnythingIsCommitted() {
        Catalog catalog = CatalogFactory.createCatalog(new Options(S3.catalogOptions("warehouse")));
        catalog.createDatabase("db", true);
        assertThatThrownBy(() -> catalog.createTable(Identifier.of("db", "t"), TestTables.simpleSchema(), false))
                .hasStackTraceContaining("ignores conditional writes");
        assertThat(catalog.tableExists(Identifier.of("db", "t"))).isFalse();
    }
}
