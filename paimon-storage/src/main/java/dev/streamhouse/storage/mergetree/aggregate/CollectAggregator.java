package dev.streamhouse.storage.mergetree.aggregate;

import dev.streamhouse.storage.data.GenericArray;
import dev.streamhouse.storage.data.InternalArray;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.options.MergeEngineOptions;
import dev.streamhouse.storage.types.ArrayType;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypeRoot;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * {@code collect}: the elements of an ARRAY column's inputs, concatenated (null elements kept). With
 * {@code fields.<column>.distinct} = 'true' each element is kept once, as Apache Paimon 1.3.1 does it:
 *
 * <ul>
 *   <li>atomic elements go through a hash set, so the result is in Paimon's hash order (see
 *       {@link PaimonHashKey}), also when only one side is non-null; binary elements are never equal;
 *   <li>nested elements (ARRAY, MAP, MULTISET, ROW) keep their order: the accumulator's elements all
 *       stay (not deduplicated), then each input element that equals none so far is appended
 *       ({@link FieldwiseEquality}). Paimon cannot compare a NULL row with a row and fails; so does this.
 * </ul>
 *
 * <p>A retraction removes, for each retracted element, the first equal element of the accumulator:
 * nested elements compare as with {@code distinct} when it is set and byte for byte otherwise
 * ({@link BinaryEquality}), atomic ones as Java objects.
 * {@code aggReversed} is {@code agg} (the older elements are appended too).
 */
final class CollectAggregator implements FieldAggregator {
    private final ColumnFunction function;
    private final DataType elementType;
    private final boolean distinct;
    private final boolean nestedElements;

    private CollectAggregator(ColumnFunction function, DataType elementType, boolean distinct) {
        this.function = function;
        this.elementType = elementType;
        this.distinct = distinct;
        this.nestedElements = elementType.root().isNested();
    }

    static FieldAggregator create(ColumnFunction function) {
        if (function.type().root() != DataTypeRoot.ARRAY) {
            throw function.typeRefused("ARRAY");
        }
        DataType elementType = ((ArrayType) function.type()).elementType();
        if (elementType.root() == DataTypeRoot.VARIANT) {
            throw function.typeNotSupportedYet("collecting VARIANT elements");
        }
        return new CollectAggregator(function, elementType,
                function.option(MergeEngineOptions.FIELD_DISTINCT, Boolean.class));
    }

    @Override
    public Object agg(Object accumulator, Object input) {
        if (accumulator == null && input == null) {
            return null;
        }
        if (!distinct) {
            if (accumulator == null || input == null) {
                return accumulator == null ? input : accumulator;
            }
            List<Object> all = elements(accumulator);
            all.addAll(elements(input));
            return new GenericArray(all.toArray());
        }
        return nestedElements ? appendUnseen(accumulator, input) : hashDistinct(accumulator, input);
    }

    @Override
    public Object aggReversed(Object accumulator, Object input) {
        return agg(accumulator, input);
    }

    @Override
    public Object retract(Object accumulator, Object retracted) {
        if (accumulator == null) {
            return null;
        }
        if (retracted == null || ((InternalArray) retracted).size() == 0) {
            return accumulator;
        }
        List<Object> pending = elements(retracted);
        List<Object> kept = new ArrayList<>();
        for (Object element : elements(accumulator)) {
            if (!removeFirstEqual(pending, element)) {
                kept.add(element);
            }
        }
        return new GenericArray(kept.toArray());
    }

    private Object hashDistinct(Object accumulator, Object input) {
        // A HashSet of Paimon-hashed keys iterates exactly as Paimon's HashSet of its own values does.
        Set<PaimonHashKey> set = new HashSet<>();
        for (Object element : elements(accumulator)) {
            set.add(PaimonHashKey.of(element, elementType));
        }
        for (Object element : elements(input)) {
            set.add(PaimonHashKey.of(element, elementType));
        }
        return new GenericArray(set.stream().map(PaimonHashKey::value).toArray());
    }

    private Object appendUnseen(Object accumulator, Object input) {
        List<Object> out = elements(accumulator);
        for (Object element : elements(input)) {
            if (!containsEqual(out, element)) {
                out.add(element);
            }
        }
        return new GenericArray(out.toArray());
    }

    private boolean containsEqual(List<Object> elements, Object element) {
        if (element == null) {
            return elements.contains(null);
        }
        for (Object candidate : elements) {
            if (candidate == null && elementType.root() == DataTypeRoot.ROW) {
                throw new UnsupportedOperationException("Cannot collect distinct rows of column '"
                        + function.column() + "': the accumulated array holds a NULL row, which cannot be "
                        + "compared with a row (Apache Paimon 1.3.1 fails here too)");
            }
            if (candidate != null && FieldwiseEquality.equal(candidate, element, elementType)) {
                return true;
            }
        }
        return false;
    }

    private boolean removeFirstEqual(List<Object> elements, Object element) {
        for (Iterator<Object> it = elements.iterator(); it.hasNext(); ) {
            if (elementsEqual(it.next(), element)) {
                it.remove();
                return true;
            }
        }
        return false;
    }

    /**
     * Equality of two elements when retracting, as Paimon's: nested ones field by field with
     * {@code distinct} and as bytes without, atomic ones as Java objects (binaries by identity).
     */
    private boolean elementsEqual(Object a, Object b) {
        if (a == null || b == null) {
            return a == b;
        }
        if (!nestedElements) {
            return Objects.equals(a, b);
        }
        return distinct ? FieldwiseEquality.equal(a, b, elementType) : BinaryEquality.equal(a, b, elementType);
    }

    private List<Object> elements(Object array) {
        List<Object> out = new ArrayList<>();
        if (array != null) {
            InternalArray a = (InternalArray) array;
            for (int i = 0; i < a.size(); i++) {
                out.add(InternalRowUtils.arrayElement(a, i, elementType));
            }
        }
        return out;
    }
}
