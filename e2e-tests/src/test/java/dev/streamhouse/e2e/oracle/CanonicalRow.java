package dev.streamhouse.e2e.oracle;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * An implementation-neutral row: a {@link Kind} and a list of plain Java values, so that rows read
 * through Apache Paimon ({@link PaimonRows}) and through our storage ({@link OurRows}) compare with
 * {@link #equals}. See {@link Canon} for the value mapping per type. Immutable.
 */
public final class CanonicalRow {

    /** The change kind, named as in both Paimon and our storage. */
    public enum Kind {
        INSERT("+I"),
        UPDATE_BEFORE("-U"),
        UPDATE_AFTER("+U"),
        DELETE("-D");

        private final String shortString;

        Kind(String shortString) {
            this.shortString = shortString;
        }

        public String shortString() {
            return shortString;
        }

        public static Kind fromShortString(String s) {
            for (Kind k : values()) {
                if (k.shortString.equals(s)) {
                    return k;
                }
            }
            throw new IllegalArgumentException("Unknown row kind '" + s + "'");
        }
    }

    private final Kind kind;
    private final List<Object> values;

    private CanonicalRow(Kind kind, List<Object> values) {
        this.kind = Objects.requireNonNull(kind, "kind");
        values.forEach(Canon::requireCanonical);
        this.values = Collections.unmodifiableList(values);
    }

    /** A +I row. Values must already be canonical (see {@link Canon}). */
    public static CanonicalRow of(Object... values) {
        return ofKind(Kind.INSERT, values);
    }

    public static CanonicalRow ofKind(Kind kind, Object... values) {
        return new CanonicalRow(kind, new ArrayList<>(Arrays.asList(values)));
    }

    public static CanonicalRow ofKind(Kind kind, List<?> values) {
        return new CanonicalRow(kind, new ArrayList<>(values));
    }

    public Kind kind() {
        return kind;
    }

    /** The values (unmodifiable; nulls allowed). */
    public List<Object> values() {
        return values;
    }

    public Object get(int pos) {
        return values.get(pos);
    }

    public int arity() {
        return values.size();
    }

    public CanonicalRow withKind(Kind newKind) {
        return new CanonicalRow(newKind, new ArrayList<>(values));
    }

    /** The values at these positions, in this order, same kind. */
    public CanonicalRow project(int... positions) {
        List<Object> out = new ArrayList<>(positions.length);
        for (int p : positions) {
            out.add(values.get(p));
        }
        return new CanonicalRow(kind, out);
    }

    /** The named columns of a row of {@code spec}, same kind. */
    public CanonicalRow project(TableSpec spec, List<String> columns) {
        return project(columns.stream().mapToInt(spec::indexOf).toArray());
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof CanonicalRow)) {
            return false;
        }
        CanonicalRow that = (CanonicalRow) o;
        return kind == that.kind && values.equals(that.values);
    }

    @Override
    public int hashCode() {
        return 31 * kind.hashCode() + values.hashCode();
    }

    /** E.g. {@code +I[1, 'abc', null, 12.50BD, [1, 2]]}; see {@link Canon#format(Object)}. */
    @Override
    public String toString() {
        return kind.shortString() + Canon.format(values);
    }
}
