package dev.streamhouse.flink.catalog;

import dev.streamhouse.storage.options.OptionDeclarations.Kind;
import dev.streamhouse.storage.options.OptionDocs;
import dev.streamhouse.storage.options.OptionRegistry;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code docs/options.md} is exactly what the option declarations of every module render to. This
 * module sees all of them (storage, sink, source, catalog). Regenerate the file after changing a
 * declaration with {@value #REGENERATE}.
 */
class OptionsDocTest {
    static final String REGENERATE = "mvn -q -pl paimon-flink-catalog -am test -Dtest=OptionsDocTest "
            + "-Dsurefire.failIfNoSpecifiedTests=false -Doptions.docs.regenerate=true";
    private static final Path DOC = Path.of("..", "docs", "options.md");

    @Test
    void theOptionTableInTheDocsMatchesTheDeclarations() throws Exception {
        OptionRegistry registry = OptionRegistry.instance();
        String rendered = OptionDocs.markdown(registry, REGENERATE);
        if (Boolean.getBoolean("options.docs.regenerate")) {
            Files.createDirectories(DOC.getParent());
            Files.writeString(DOC, rendered, StandardCharsets.UTF_8);
        }
        assertThat(DOC).as("docs/options.md exists; create it with: " + REGENERATE).exists();
        assertThat(Files.readString(DOC, StandardCharsets.UTF_8))
                .as("docs/options.md is out of date; regenerate it with: " + REGENERATE)
                .isEqualTo(rendered);
    }

    @Test
    void everyModuleContributesItsOptions() {
        OptionRegistry registry = OptionRegistry.instance();
        for (String key : new String[] {"bucket", "write-buffer-size", "sink.parallelism", "scan.parallelism",
                "scan.watermark.idle-timeout", "lookup.cache", "connector", "schema.watermark.0.rowtime"}) {
            assertThat(registry.isKnown(Kind.TABLE, key)).as(key).isTrue();
        }
        assertThat(registry.isKnown(Kind.CATALOG, "log.system.auto-register")).isTrue();
    }
}
