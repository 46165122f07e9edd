package dev.streamhouse.e2e.aggregate;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.InternalArray;
import dev.streamhouse.storage.data.InternalMap;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.types.ArrayType;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.MapType;
import dev.streamhouse.storage.types.RowType;

import org.apache.paimon.data.serializer.InternalArraySerializer;
import org.apache.paimon.data.serializer.InternalMapSerializer;
import org.apache.paimon.data.serializer.InternalRowSerializer;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Our internal values as Apache Paimon's internal values, and both as order-preserving comparable
 * forms (lists for arrays, maps and rows, in their order; hex for binaries; precision, scale and value
 * for decimals). Every call builds new objects, as every read of a data file does: Paimon compares
 * {@code byte[]} by identity, so no two inputs may share one.
 */
final class AggregateValues {
    private static final HexFormat HEX = HexFormat.of();

    private AggregateValues() {}

    /** Paimon's internal value for our internal value {@code v} of our type {@code type}. */
    static Object toPaimon(Object v, DataType type) {
        if (v == null) {
            return null;
        }
        switch (type.root()) {
            case CHAR:
            case VARCHAR:
                return org.apache.paimon.data.BinaryString.fromBytes(((BinaryString) v).toBytes().clone());
            case BINARY:
            case VARBINARY:
                return ((byte[]) v).clone();
            case DECIMAL: {
                Decimal d = (Decimal) v;
                return d.isCompact()
                        ? org.apache.paimon.data.Decimal.fromUnscaledLong(d.toUnscaledLong(), d.precision(), d.scale())
                        : org.apache.paimon.data.Decimal.fromBigDecimal(d.toBigDecimal(), d.precision(), d.scale());
            }
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE: {
                Timestamp t = (Timestamp) v;
                return org.apache.paimon.data.Timestamp.fromEpochMillis(t.millisecond(), t.nanoOfMillisecond());
            }
            case ARRAY: {
                InternalArray a = (InternalArray) v;
                DataType et = ((ArrayType) type).elementType();
                Object[] out = new Object[a.size()];
                for (int i = 0; i < out.length; i++) {
                    out[i] = toPaimon(InternalRowUtils.arrayElement(a, i, et), et);
                }
                return new org.apache.paimon.data.GenericArray(out);
            }
            case MAP: {
                InternalMap m = (InternalMap) v;
                MapType mt = (MapType) type;
                Map<Object, Object> out = new LinkedHashMap<>();
                for (int i = 0; i < m.size(); i++) {
                    out.put(toPaimon(InternalRowUtils.arrayElement(m.keyArray(), i, mt.keyType()), mt.keyType()),
                            toPaimon(InternalRowUtils.arrayElement(m.valueArray(), i, mt.valueType()), mt.valueType()));
                }
                return new org.apache.paimon.data.GenericMap(out);
            }
            case ROW: {
                InternalRow r = (InternalRow) v;
                RowType rt = (RowType) type;
                Object[] fields = new Object[rt.fieldCount()];
                for (int i = 0; i < fields.length; i++) {
                    fields[i] = toPaimon(InternalRowUtils.fieldGetter(rt.typeAt(i), i).get(r), rt.typeAt(i));
                }
                return org.apache.paimon.data.GenericRow.ofKind(
                        org.apache.paimon.types.RowKind.valueOf(r.rowKind().name()), fields);
            }
            default:
                return v;
        }
    }

    /**
     * Paimon's value for our {@code v} as Paimon meets it while merging: nested values (ARRAY, MAP,
     * MULTISET, ROW) in its binary format, as read from data files, atomic ones as objects.
     */
    static Object toPaimonAsRead(Object v, DataType type, org.apache.paimon.types.DataType paimonType) {
        Object generic = toPaimon(v, type);
        if (generic == null) {
            return null;
        }
        switch (paimonType.getTypeRoot()) {
            case ARRAY:
                return new InternalArraySerializer(((org.apache.paimon.types.ArrayType) paimonType).getElementType())
                        .toBinaryArray((org.apache.paimon.data.InternalArray) generic).copy();
            case MAP: {
                org.apache.paimon.types.MapType m = (org.apache.paimon.types.MapType) paimonType;
                return new InternalMapSerializer(m.getKeyType(), m.getValueType())
                        .toBinaryMap((org.apache.paimon.data.InternalMap) generic).copy();
            }
            case ROW:
                return new InternalRowSerializer((org.apache.paimon.types.RowType) paimonType)
                        .toBinaryRow((org.apache.paimon.data.InternalRow) generic).copy();
            default:
                return generic;
        }
    }

    /** The comparable form of our internal value {@code v} of our type {@code type}. */
    static Object ofOurs(Object v, DataType type) {
        if (v == null) {
            return null;
        }
        switch (type.root()) {
            case CHAR:
            case VARCHAR:
                return v.toString();
            case BINARY:
            case VARBINARY:
                return "0x" + HEX.formatHex((byte[]) v);
            case DECIMAL: {
                Decimal d = (Decimal) v;
                return "DECIMAL(" + d.precision() + ", " + d.scale() + ") " + d.toBigDecimal().toPlainString();
            }
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE: {
                Timestamp t = (Timestamp) v;
                return "TS " + t.millisecond() + "+" + t.nanoOfMillisecond();
            }
            case ARRAY: {
                InternalArray a = (InternalArray) v;
                DataType et = ((ArrayType) type).elementType();
                List<Object> out = new ArrayList<>();
                for (int i = 0; i < a.size(); i++) {
                    out.add(ofOurs(InternalRowUtils.arrayElement(a, i, et), et));
                }
                return out;
            }
            case MAP: {
                InternalMap m = (InternalMap) v;
                MapType mt = (MapType) type;
                List<Object> out = new ArrayList<>();
                for (int i = 0; i < m.size(); i++) {
                    out.add(List.of(String.valueOf(ofOurs(InternalRowUtils.arrayElement(m.keyArray(), i, mt.keyType()),
                                    mt.keyType())),
                            String.valueOf(ofOurs(InternalRowUtils.arrayElement(m.valueArray(), i, mt.valueType()),
                                    mt.valueType()))));
                }
                return out;
            }
            case ROW: {
                InternalRow r = (InternalRow) v;
                RowType rt = (RowType) type;
                List<Object> out = new ArrayList<>();
                out.add(r.rowKind().shortString());
                for (int i = 0; i < rt.fieldCount(); i++) {
                    out.add(ofOurs(InternalRowUtils.fieldGetter(rt.typeAt(i), i).get(r), rt.typeAt(i)));
                }
                return out;
            }
            default:
                return v;
        }
    }

    /** The comparable form of Paimon's internal value {@code v} of Paimon's type {@code type}. */
    static Object ofPaimon(Object v, org.apache.paimon.types.DataType type) {
        if (v == null) {
            return null;
        }
        switch (type.getTypeRoot()) {
            case CHAR:
            case VARCHAR:
                return v.toString();
            case BINARY:
            case VARBINARY:
                return "0x" + HEX.formatHex((byte[]) v);
            case DECIMAL: {
                org.apache.paimon.data.Decimal d = (org.apache.paimon.data.Decimal) v;
                return "DECIMAL(" + d.precision() + ", " + d.scale() + ") " + d.toBigDecimal().toPlainString();
            }
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE: {
                org.apache.paimon.data.Timestamp t = (org.apache.paimon.data.Timestamp) v;
                return "TS " + t.getMillisecond() + "+" + t.getNanoOfMillisecond();
            }
            case ARRAY: {
                org.apache.paimon.data.InternalArray a = (org.apache.paimon.data.InternalArray) v;
                org.apache.paimon.types.DataType et = ((org.apache.paimon.types.ArrayType) type).getElementType();
                org.apache.paimon.data.InternalArray.ElementGetter g =
                        org.apache.paimon.data.InternalArray.createElementGetter(et);
                List<Object> out = new ArrayList<>();
                for (int i = 0; i < a.size(); i++) {
                    out.add(ofPaimon(g.getElementOrNull(a, i), et));
                }
                return out;
            }
            case MAP: {
                org.apache.paimon.data.InternalMap m = (org.apache.paimon.data.InternalMap) v;
                org.apache.paimon.types.MapType mt = (org.apache.paimon.types.MapType) type;
                org.apache.paimon.data.InternalArray.ElementGetter kg =
                        org.apache.paimon.data.InternalArray.createElementGetter(mt.getKeyType());
                org.apache.paimon.data.InternalArray.ElementGetter vg =
                        org.apache.paimon.data.InternalArray.createElementGetter(mt.getValueType());
                List<Object> out = new ArrayList<>();
                for (int i = 0; i < m.size(); i++) {
                    out.add(List.of(String.valueOf(ofPaimon(kg.getElementOrNull(m.keyArray(), i), mt.getKeyType())),
                            String.valueOf(ofPaimon(vg.getElementOrNull(m.valueArray(), i), mt.getValueType()))));
                }
                return out;
            }
            case ROW: {
                org.apache.paimon.data.InternalRow r = (org.apache.paimon.data.InternalRow) v;
                org.apache.paimon.types.RowType rt = (org.apache.paimon.types.RowType) type;
                List<Object> out = new ArrayList<>();
                out.add(r.getRowKind().shortString());
                for (int i = 0; i < rt.getFieldCount(); i++) {
                    out.add(ofPaimon(org.apache.paimon.data.InternalRow.createFieldGetter(rt.getTypeAt(i), i)
                            .getFieldOrNull(r), rt.getTypeAt(i)));
                }
                return out;
            }
            default:
                return v;
        }
    }
}
