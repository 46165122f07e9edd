package dev.streamhouse.sqlrunner.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.flink.procedure.Procedures;
import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.CatalogFactory;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.system.SystemTable;
import dev.streamhouse.storage.table.system.SystemTables;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataTypes;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The manual covers what the catalog offers, checked against what the code registers: a section per
 * procedure that works ({@code ### `name`} in docs/procedures.md) and a mention of each one refused as
 * not supported yet; a section per system table ({@code ### `$name`} in docs/system-tables.md), and for
 * each metadata table a column table listing exactly the table's columns and types, in order.
 */
class DocsCoverageTest {
    private static final MarkdownPage PROCEDURES = Docs.read(Docs.DOCS.resolve("procedures.md"));
    private static final MarkdownPage SYSTEM_TABLES = Docs.read(Docs.DOCS.resolve("system-tables.md"));

    @TempDir
    Path warehouse;

    @Test
    void everyProcedureThatWorksHasASectionAndNoSectionNamesAnotherOne() {
        List<String> documented = level3Names(PROCEDURES);
        assertThat(Procedures.names()).as("procedures the catalog offers").hasSizeGreaterThan(15);
        assertThat(documented).as("### `name` sections of docs/procedures.md")
                .containsExactlyInAnyOrderElementsOf(Procedures.names());
    }

    @Test
    void everyProcedureNotSupportedYetIsNamed() {
        String text = String.join("\n", PROCEDURES.lines());
        assertThat(Procedures.notSupportedYet()).isNotEmpty().allSatisfy(name ->
                assertThat(text).as("docs/procedures.md names %s (not supported yet)", name).contains("`" + name + "`"));
    }

    @Test
    void everySystemTableHasASection() {
        List<String> expected = SystemTables.names().stream().map(n -> "$" + n).toList();
        assertThat(expected).hasSizeGreaterThan(10);
        assertThat(level3Names(SYSTEM_TABLES)).as("### `$name` sections of docs/system-tables.md")
                .containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void everyMetadataTableListsItsColumnsAndTypesInOrder() throws Exception {
        Table table;
        try (Catalog catalog = CatalogFactory.createCatalog(Options.of("warehouse", warehouse.toString()))) {
            catalog.createDatabase("db", false);
            Identifier id = Identifier.of("db", "t");
            catalog.createTable(id, Schema.newBuilder()
                    .column("id", DataTypes.BIGINT().notNull())
                    .column("dt", DataTypes.STRING().notNull())
                    .primaryKey("id", "dt").partitionKeys("dt").option("bucket", "1").build(), false);
            table = catalog.getTable(id);
        }
        SoftAssertions softly = new SoftAssertions();
        int metadataTables = 0;
        for (String name : SystemTables.names()) {
            Optional<SystemTable> systemTable = SystemTables.of(table, name);
            if (systemTable.isEmpty()) {
                continue;   // a data view: its columns are the data table's
            }
            metadataTables++;
            List<String> expected = systemTable.get().rowType().fields().stream()
                    .map(DataDocsColumn::of).map(DataDocsColumn::toString).map(s -> s.replace("`", "")).toList();
            softly.assertThat(documentedColumns("$" + name))
                    .as("the column table of `$%s` in docs/system-tables.md (name | type)", name)
                    .containsExactlyElementsOf(expected);
        }
        softly.assertAll();
        assertThat(metadataTables).isGreaterThan(8);
    }

    /** A column as the docs list it: name and type, compared as {@code name TYPE}. */
    private record DataDocsColumn(String name, String type) {
        static DataDocsColumn of(DataField field) {
            return new DataDocsColumn(field.name(), field.type().asSQLString());
        }

        @Override
        public String toString() {
            return name + " " + type;
        }
    }

    /** The rows of the first table under {@code ### `name`} whose first header cell is "Column". */
    private static List<String> documentedColumns(String systemTable) {
        MarkdownPage.Heading heading = SYSTEM_TABLES.headings().stream()
                .filter(h -> h.level() == 3 && h.plainText().equals(systemTable))
                .findFirst().orElseThrow(() -> new AssertionError("no section ### `" + systemTable + "`"));
        List<String> columns = new ArrayList<>();
        boolean inTable = false;
        for (String line : SYSTEM_TABLES.sectionBody(heading)) {
            List<String> cells = cells(line);
            if (!inTable) {
                inTable = !cells.isEmpty() && cells.get(0).equalsIgnoreCase("column");
                continue;
            }
            if (cells.isEmpty()) {
                break;
            }
            if (cells.get(0).matches("-+:?|:?-+:?")) {
                continue;   // the delimiter row
            }
            columns.add(cells.get(0).replace("`", "") + " " + (cells.size() > 1 ? cells.get(1).replace("`", "") : ""));
        }
        return columns;
    }

    private static List<String> cells(String line) {
        String trimmed = line.trim();
        if (!trimmed.startsWith("|")) {
            return List.of();
        }
        String inner = trimmed.substring(1, trimmed.endsWith("|") ? trimmed.length() - 1 : trimmed.length());
        List<String> cells = new ArrayList<>();
        for (String cell : inner.split("(?<!\\\\)\\|")) {
            cells.add(cell.trim());
        }
        return cells;
    }

    private static List<String> level3Names(MarkdownPage page) {
        return page.headings().stream().filter(h -> h.level() == 3).map(MarkdownPage.Heading::plainText)
                .filter(t -> !t.contains(" ")).collect(Collectors.toList());
    }
}
