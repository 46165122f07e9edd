package dev.streamhouse.storage.format.parquet;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.predicate.CompoundPredicate;
import dev.streamhouse.storage.predicate.LeafPredicate;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.RowType;

import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.filter2.predicate.Operators;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Translates a predicate over a read type into a Parquet {@link FilterPredicate}, so that page indexes
 * (column index and offset index) can skip the pages of a row group that hold no candidate row. The
 * result may be weaker than the predicate (an AND keeps the conjuncts it can translate), never
 * stronger: pages it skips hold no row the predicate accepts. Only columns compared as Parquet
 * compares them are translated: booleans, integers up to BIGINT, dates, and character strings (unsigned
 * bytewise); floating point (NaN ordering), decimals and timestamps are left to row-group statistics.
 */
final class ParquetFilters {
    /** Longer IN lists are left to row-group statistics (the OR tree would outweigh the pages skipped). */
    private static final int MAX_IN_LITERALS = 64;

    private final RowType readType;
    private final MessageType fileSchema;

    private ParquetFilters(RowType readType, MessageType fileSchema) {
        this.readType = readType;
        this.fileSchema = fileSchema;
    }

    /** The page filter for {@code predicate} (over {@code readType} positions), or empty if nothing translates. */
    static Optional<FilterPredicate> of(Predicate predicate, RowType readType, MessageType fileSchema) {
        return predicate == null ? Optional.empty()
                : Optional.ofNullable(new ParquetFilters(readType, fileSchema).convert(predicate));
    }

    private FilterPredicate convert(Predicate p) {
        if (p instanceof CompoundPredicate compound) {
            List<FilterPredicate> children = new ArrayList<>();
            for (Predicate child : compound.children()) {
                FilterPredicate converted = convert(child);
                if (converted == null && compound.kind() == CompoundPredicate.Kind.OR) {
                    return null; // an OR is only as strong as its weakest branch
                }
                if (converted != null) {
                    children.add(converted);
                }
            }
            if (children.isEmpty()) {
                return null;
            }
            FilterPredicate out = children.get(0);
            for (int i = 1; i < children.size(); i++) {
                out = compound.kind() == CompoundPredicate.Kind.OR
                        ? FilterApi.or(out, children.get(i))
                        : FilterApi.and(out, children.get(i));
            }
            return out;
        }
        return p instanceof LeafPredicate leaf ? convertLeaf(leaf) : null;
    }

    private FilterPredicate convertLeaf(LeafPredicate leaf) {
        if (leaf.index() < 0 || leaf.index() >= readType.fieldCount()) {
            return null;
        }
        String name = readType.field(leaf.index()).name();
        DataType type = readType.typeAt(leaf.index());
        if (!leaf.type().equalsIgnoreNullable(type) || !fileSchema.containsField(name)) {
            return null;
        }
        Type fileField = fileSchema.getType(name);
        if (!fileField.isPrimitive()) {
            return null;
        }
        PrimitiveTypeName physical = fileField.asPrimitiveType().getPrimitiveTypeName();
        switch (type.root()) {
            case TINYINT:
            case SMALLINT:
            case INTEGER:
            case DATE:
                return physical == PrimitiveTypeName.INT32
                        ? compare(leaf, FilterApi.intColumn(name), v -> ((Number) v).intValue()) : null;
            case BIGINT:
                return physical == PrimitiveTypeName.INT64
                        ? compare(leaf, FilterApi.longColumn(name), v -> (Long) v) : null;
            case CHAR:
            case VARCHAR:
                return physical == PrimitiveTypeName.BINARY
                        ? compare(leaf, FilterApi.binaryColumn(name),
                                v -> Binary.fromConstantByteArray(((BinaryString) v).toBytes()))
                        : null;
            case BOOLEAN:
                if (physical != PrimitiveTypeName.BOOLEAN) {
                    return null;
                }
                Operators.BooleanColumn column = FilterApi.booleanColumn(name);
                switch (leaf.function()) {
                    case EQUAL:
                        return leaf.literals().get(0) == null ? null : FilterApi.eq(column, (Boolean) leaf.literals().get(0));
                    case IS_NULL:
                        return FilterApi.eq(column, null);
                    case IS_NOT_NULL:
                        return FilterApi.notEq(column, null);
                    default:
                        return null;
                }
            default:
                return null;
        }
    }

    private interface Literal<T> {
        T of(Object internal);
    }

    private static <T extends Comparable<T>, C extends Operators.Column<T> & Operators.SupportsLtGt>
            FilterPredicate compare(LeafPredicate leaf, C column, Literal<T> literal) {
        List<Object> literals = leaf.literals();
        Object first = literals.isEmpty() ? null : literals.get(0);
        switch (leaf.function()) {
            case IS_NULL:
                return FilterApi.eq(column, null);
            case IS_NOT_NULL:
                return FilterApi.notEq(column, null);
            case EQUAL:
                return first == null ? null : FilterApi.eq(column, literal.of(first));
            case LESS_THAN:
                return first == null ? null : FilterApi.lt(column, literal.of(first));
            case LESS_OR_EQUAL:
                return first == null ? null : FilterApi.ltEq(column, literal.of(first));
            case GREATER_THAN:
                return first == null ? null : FilterApi.gt(column, literal.of(first));
            case GREATER_OR_EQUAL:
                return first == null ? null : FilterApi.gtEq(column, literal.of(first));
            case IN:
                // An OR of equalities: parquet-mr's page index does not prune with its own IN.
                if (literals.size() > MAX_IN_LITERALS) {
                    return null;
                }
                FilterPredicate any = null;
                for (Object v : literals) {
                    if (v != null) { // NULL IN (...) is never true
                        FilterPredicate eq = FilterApi.eq(column, literal.of(v));
                        any = any == null ? eq : FilterApi.or(any, eq);
                    }
                }
                return any;
            default:
                return null;
        }
    }
}
