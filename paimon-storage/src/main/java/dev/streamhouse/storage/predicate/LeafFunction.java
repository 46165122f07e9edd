package dev.streamhouse.storage.predicate;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.types.DataType;

import java.util.List;
import java.util.Optional;

/**
 * The functions a {@link LeafPredicate} can apply. Each knows how to test one value and how to
 * decide from statistics whether a matching value may exist.
 */
public enum LeafFunction {
    EQUAL {
        @Override
        boolean testValue(DataType t, Object v, List<Object> lits) {
            return cmp(t, v, lits.get(0)) == 0;
        }

        @Override
        boolean testRange(DataType t, Object min, Object max, List<Object> lits) {
            Object l = lits.get(0);
            return cmp(t, min, l) <= 0 && cmp(t, max, l) >= 0;
        }
    },
    NOT_EQUAL {
        @Override
        boolean testValue(DataType t, Object v, List<Object> lits) {
            return cmp(t, v, lits.get(0)) != 0;
        }

        @Override
        boolean testRange(DataType t, Object min, Object max, List<Object> lits) {
            Object l = lits.get(0);
            return !(cmp(t, min, l) == 0 && cmp(t, max, l) == 0);
        }
    },
    LESS_THAN {
        @Override
        boolean testValue(DataType t, Object v, List<Object> lits) {
            return cmp(t, v, lits.get(0)) < 0;
        }

        @Override
        boolean testRange(DataType t, Object min, Object max, List<Object> lits) {
            return cmp(t, min, lits.get(0)) < 0;
        }
    },
    LESS_OR_EQUAL {
        @Override
        boolean testValue(DataType t, Object v, List<Object> lits) {
            return cmp(t, v, lits.get(0)) <= 0;
        }

        @Override
        boolean testRange(DataType t, Object min, Object max, List<Object> lits) {
            return cmp(t, min, lits.get(0)) <= 0;
        }
    },
    GREATER_THAN {
        @Override
        boolean testValue(DataType t, Object v, List<Object> lits) {
            return cmp(t, v, lits.get(0)) > 0;
        }

        @Override
        boolean testRange(DataType t, Object min, Object max, List<Object> lits) {
            return cmp(t, max, lits.get(0)) > 0;
        }
    },
    GREATER_OR_EQUAL {
        @Override
        boolean testValue(DataType t, Object v, List<Object> lits) {
            return cmp(t, v, lits.get(0)) >= 0;
        }

        @Override
        boolean testRange(DataType t, Object min, Object max, List<Object> lits) {
            return cmp(t, max, lits.get(0)) >= 0;
        }
    },
    IN {
        @Override
        boolean testValue(DataType t, Object v, List<Object> lits) {
            for (Object l : lits) {
                if (cmp(t, v, l) == 0) {
                    return true;
                }
            }
            return false;
        }

        @Override
        boolean testRange(DataType t, Object min, Object max, List<Object> lits) {
            for (Object l : lits) {
                if (cmp(t, min, l) <= 0 && cmp(t, max, l) >= 0) {
                    return true;
                }
            }
            return false;
        }
    },
    NOT_IN {
        @Override
        boolean testValue(DataType t, Object v, List<Object> lits) {
            return !IN.testValue(t, v, lits);
        }

        @Override
        boolean testRange(DataType t, Object min, Object max, List<Object> lits) {
            // Only a constant column whose value is excluded can be ruled out.
            return !(cmp(t, min, max) == 0 && IN.testValue(t, min, lits));
        }
    },
    STARTS_WITH {
        @Override
        boolean testValue(DataType t, Object v, List<Object> lits) {
            BinaryString s = (BinaryString) v;
            BinaryString p = (BinaryString) lits.get(0);
            return startsWith(s, p);
        }

        @Override
        boolean testRange(DataType t, Object min, Object max, List<Object> lits) {
            BinaryString p = (BinaryString) lits.get(0);
            BinaryString mn = (BinaryString) min;
            BinaryString mx = (BinaryString) max;
            if (mx.compareTo(p) < 0) {
                return false;
            }
            // min greater than the prefix without extending it is greater than every string with it
            return !(mn.compareTo(p) > 0 && !startsWith(mn, p));
        }
    },
    IS_NULL {
        @Override
        boolean testValue(DataType t, Object v, List<Object> lits) {
            throw new AssertionError("handled in test()");
        }

        @Override
        boolean testRange(DataType t, Object min, Object max, List<Object> lits) {
            throw new AssertionError("handled in test()");
        }
    },
    IS_NOT_NULL {
        @Override
        boolean testValue(DataType t, Object v, List<Object> lits) {
            throw new AssertionError("handled in test()");
        }

        @Override
        boolean testRange(DataType t, Object min, Object max, List<Object> lits) {
            throw new AssertionError("handled in test()");
        }
    };

    /** Tests a non-null value. */
    abstract boolean testValue(DataType type, Object value, List<Object> literals);

    /** Tests known, non-null min and max. */
    abstract boolean testRange(DataType type, Object min, Object max, List<Object> literals);

    /** Tests one (possibly null) value. */
    public boolean test(DataType type, Object value, List<Object> literals) {
        if (this == IS_NULL) {
            return value == null;
        }
        if (this == IS_NOT_NULL) {
            return value != null;
        }
        return value != null && testValue(type, value, literals);
    }

    /** Whether rows with these statistics may match; unknown statistics (null) answer true. */
    public boolean test(DataType type, long rowCount, Object min, Object max, Long nullCount, List<Object> literals) {
        if (this == IS_NULL) {
            return nullCount == null || nullCount > 0;
        }
        if (this == IS_NOT_NULL) {
            return nullCount == null || nullCount < rowCount;
        }
        if (nullCount != null && nullCount >= rowCount) {
            return false; // all values are null: no comparison can be true
        }
        if (min == null || max == null) {
            return true;
        }
        return testRange(type, min, max, literals);
    }

    public Optional<LeafFunction> negate() {
        switch (this) {
            case EQUAL:
                return Optional.of(NOT_EQUAL);
            case NOT_EQUAL:
                return Optional.of(EQUAL);
            case LESS_THAN:
                return Optional.of(GREATER_OR_EQUAL);
            case LESS_OR_EQUAL:
                return Optional.of(GREATER_THAN);
            case GREATER_THAN:
                return Optional.of(LESS_OR_EQUAL);
            case GREATER_OR_EQUAL:
                return Optional.of(LESS_THAN);
            case IN:
                return Optional.of(NOT_IN);
            case NOT_IN:
                return Optional.of(IN);
            case IS_NULL:
                return Optional.of(IS_NOT_NULL);
            case IS_NOT_NULL:
                return Optional.of(IS_NULL);
            default:
                return Optional.empty();
        }
    }

    static int cmp(DataType type, Object a, Object b) {
        return InternalRowUtils.compare(a, b, type);
    }

    static boolean startsWith(BinaryString s, BinaryString prefix) {
        if (prefix.byteLength() > s.byteLength()) {
            return false;
        }
        for (int i = 0; i < prefix.byteLength(); i++) {
            if (s.byteAt(i) != prefix.byteAt(i)) {
                return false;
            }
        }
        return true;
    }
}
