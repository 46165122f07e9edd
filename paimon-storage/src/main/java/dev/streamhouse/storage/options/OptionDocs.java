package dev.streamhouse.storage.options;

import dev.streamhouse.storage.options.OptionDeclarations.Group;
import dev.streamhouse.storage.options.OptionDeclarations.Kind;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Renders every declared option as Markdown tables (key, default, type, status, description), grouped
 * by area, table options before catalog options. The project's {@code docs/options.md} is this text;
 * a test compares the two, so the documentation cannot drift from the declarations.
 */
public final class OptionDocs {
    private OptionDocs() {}

    /** The whole document for the declarations {@code registry} holds. */
    public static String markdown(OptionRegistry registry, String regenerateCommand) {
        StringBuilder out = new StringBuilder();
        out.append("# Options\n\n")
                .append("Generated from the option declarations; do not edit by hand. Regenerate with\n`")
                .append(regenerateCommand).append("`.\n\n")
                .append("Every option of Apache Paimon 1.3 has one of three statuses here, so no option is ever "
                        + "silently ignored:\n\n")
                .append("- **supported**: implemented with Paimon's meaning (for some options only some values, "
                        + "as noted; other values are refused).\n")
                .append("- **refused**: not implemented yet. `CREATE TABLE`, `ALTER TABLE ... SET`, `OPTIONS` "
                        + "hints and `CREATE CATALOG` refuse any value but the default with \"option 'x' is not "
                        + "supported yet\", before anything is written. A table another engine created with "
                        + "such a value is refused for writing, and for reading too when its rows would differ.\n")
                .append("- **no effect yet**: accepted with a warning naming the option. Only options that shape "
                        + "maintenance or performance, never the rows a query returns, have this status.\n\n")
                .append("Unknown keys are accepted, as Paimon accepts them, with a warning naming the key and the "
                        + "nearest known key. Immutable options cannot change after `CREATE TABLE`. Keys with "
                        + "`<field>` stand for a column name, `<class>` for a class name, `*` for anything.\n");
        for (Kind kind : Kind.values()) {
            out.append("\n## ").append(kind == Kind.TABLE ? "Table options" : "Catalog options").append("\n");
            if (kind == Kind.TABLE) {
                out.append("\nSet in `CREATE TABLE ... WITH`, `ALTER TABLE ... SET`, as `OPTIONS` hints, or for every "
                        + "new table of a catalog as `table-default.<key>`.\n");
            } else {
                out.append("\nSet in `CREATE CATALOG ... WITH`.\n");
            }
            List<Group> groups = new ArrayList<>();
            for (Group g : registry.groups()) {
                if (g.kind() == kind) {
                    groups.add(g);
                }
            }
            groups.sort(Comparator.comparing(Group::title));
            for (Group g : groups) {
                out.append("\n### ").append(g.title()).append("\n\n")
                        .append("| Key | Default | Type | Status | Description |\n")
                        .append("|---|---|---|---|---|\n");
                List<ConfigOption<?>> rows = new ArrayList<>(g.options());
                g.patterns().forEach(p -> rows.add(p.prototype()));
                rows.sort(Comparator.comparing(ConfigOption::key));
                for (ConfigOption<?> o : rows) {
                    out.append("| `").append(cell(o.key())).append("` | ").append(defaultText(o)).append(" | ")
                            .append(cell(o.typeName())).append(" | ").append(cell(status(o))).append(" | ")
                            .append(cell(description(o))).append(" |\n");
                }
            }
        }
        return out.toString();
    }

    private static <T> String defaultText(ConfigOption<T> o) {
        return o.defaultValue() == null ? "(none)" : "`" + cell(o.format(o.defaultValue())) + "`";
    }

    /** The status column, e.g. "supported ('deduplicate' only)". */
    static String status(ConfigOption<?> o) {
        String note = o.statusNote();
        switch (o.status()) {
            case SUPPORTED:
                return note.isEmpty() ? "supported" : "supported (" + note + ")";
            case NOT_SUPPORTED:
                return "**refused**: " + note;
            case NO_EFFECT:
            default:
                return "no effect yet: " + note;
        }
    }

    private static String description(ConfigOption<?> o) {
        StringBuilder d = new StringBuilder(o.description());
        if (o.isImmutable()) {
            d.append(" Immutable.");
        }
        if (!o.fallbackKeys().isEmpty()) {
            d.append(" Also read from ");
            for (int i = 0; i < o.fallbackKeys().size(); i++) {
                d.append(i == 0 ? "" : ", ").append('`').append(o.fallbackKeys().get(i)).append('`');
            }
            d.append(" (older keys).");
        }
        return d.toString();
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }
}
