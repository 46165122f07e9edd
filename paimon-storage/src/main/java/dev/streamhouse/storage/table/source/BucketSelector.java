package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.bucket.BucketFunction;
import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryRowConverter;
import dev.streamhouse.storage.options.BucketOptions;
import dev.streamhouse.storage.predicate.CompoundPredicate;
import dev.streamhouse.storage.predicate.LeafFunction;
import dev.streamhouse.storage.predicate.LeafPredicate;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.RowType;

import java.util.ArrayList;
import java.util.concurrent.ConcurrentHashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The buckets that rows matching a filter can live in, for tables with a fixed bucket count: when the
 * filter's AND-conjuncts pin every bucket-key column to literals ({@code =}, {@code IN}, or an OR of
 * those on that column), a matching row's bucket key is one of the literal combinations, so only their
 * buckets can hold it. Files are judged by the total bucket count they were written with; dynamic
 * buckets ({@code -1}) are never pruned. Thread-safe.
 */
final class BucketSelector {
    /** Above this many key combinations, pruning is not worth computing. */
    private static final int MAX_COMBINATIONS = 1024;

    private final List<BinaryRow> keys;
    private final BucketFunction function;
    private final Map<Integer, Set<Integer>> bucketsByTotal = new ConcurrentHashMap<>();

    private BucketSelector(List<BinaryRow> keys, BucketFunction function) {
        this.keys = keys;
        this.function = function;
    }

    /**
     * @param filter over the rows of {@code schema}, or null
     * @return empty when the filter does not pin every bucket-key column, or the table has no
     *     fixed bucket count
     */
    static Optional<BucketSelector> of(TableSchema schema, Predicate filter) {
        if (filter == null || schema.numBuckets() <= 0) {
            return Optional.empty();
        }
        RowType rowType = schema.rowType();
        List<String> bucketKeys = schema.bucketKeys();
        List<List<Object>> choices = new ArrayList<>();
        long combinations = 1;
        for (String key : bucketKeys) {
            int position = rowType.fieldIndex(key);
            Set<Object> literals = literalsOf(filter, position, rowType.typeAt(position));
            if (literals == null || literals.isEmpty()) {
                return Optional.empty();
            }
            combinations *= literals.size();
            if (combinations > MAX_COMBINATIONS) {
                return Optional.empty();
            }
            choices.add(new ArrayList<>(literals));
        }
        RowType keyType = rowType.project(bucketKeys);
        BinaryRowConverter converter = new BinaryRowConverter(keyType.fieldTypes());
        List<BinaryRow> keys = new ArrayList<>();
        combine(choices, 0, new Object[choices.size()], converter, keys);
        BucketFunction function = BucketFunction.of(
                schema.tableOptions().get(BucketOptions.BUCKET_FUNCTION_TYPE), keyType);
        return Optional.of(new BucketSelector(keys, function));
    }

    /** Whether a bucket of a partition written with {@code totalBuckets} buckets may hold matching rows. */
    boolean selects(int bucket, int totalBuckets) {
        if (totalBuckets <= 0) {
            return true;
        }
        return bucketsByTotal.computeIfAbsent(totalBuckets, n -> {
            Set<Integer> out = new HashSet<>();
            for (BinaryRow key : keys) {
                out.add(function.bucket(key, n));
            }
            return out;
        }).contains(bucket);
    }

    /** The literals one conjunct of {@code filter} pins the column to, or null if none does. */
    private static Set<Object> literalsOf(Predicate filter, int position, DataType type) {
        for (Predicate conjunct : PredicateBuilder.splitAnd(filter)) {
            Set<Object> literals = pinned(conjunct, position, type);
            if (literals != null) {
                return literals;
            }
        }
        return null;
    }

    private static Set<Object> pinned(Predicate p, int position, DataType type) {
        if (p instanceof LeafPredicate leaf) {
            if (leaf.index() != position || !leaf.type().equalsIgnoreNullable(type)) {
                return null;
            }
            if (leaf.function() != LeafFunction.EQUAL && leaf.function() != LeafFunction.IN) {
                return null;
            }
            Set<Object> out = new LinkedHashSet<>();
            for (Object literal : leaf.literals()) {
                if (literal != null) { // NULL never equals anything
                    out.add(literal);
                }
            }
            return out;
        }
        if (p instanceof CompoundPredicate compound && compound.kind() == CompoundPredicate.Kind.OR) {
            Set<Object> out = new LinkedHashSet<>();
            for (Predicate child : compound.children()) {
                Set<Object> literals = pinned(child, position, type);
                if (literals == null) {
                    return null;
                }
                out.addAll(literals);
            }
            return out;
        }
        return null;
    }

    private static void combine(List<List<Object>> choices, int depth, Object[] current, BinaryRowConverter converter,
            List<BinaryRow> out) {
        if (depth == choices.size()) {
            out.add(converter.toBinaryRow(current.clone()));
            return;
        }
        for (Object value : choices.get(depth)) {
            current[depth] = value;
            combine(choices, depth + 1, current, converter, out);
        }
    }
}
