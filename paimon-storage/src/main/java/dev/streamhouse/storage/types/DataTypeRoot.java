package dev.streamhouse.storage.types;

/** The kind of a {@link DataType}, without its parameters (length, precision, nullability). */
public enum DataTypeRoot {
    CHAR(Family.CHARACTER_STRING),
    VARCHAR(Family.CHARACTER_STRING),
    BOOLEAN(Family.PREDEFINED),
    BINARY(Family.BINARY_STRING),
    VARBINARY(Family.BINARY_STRING),
    DECIMAL(Family.NUMERIC),
    TINYINT(Family.NUMERIC),
    SMALLINT(Family.NUMERIC),
    INTEGER(Family.NUMERIC),
    BIGINT(Family.NUMERIC),
    FLOAT(Family.NUMERIC),
    DOUBLE(Family.NUMERIC),
    DATE(Family.DATETIME),
    TIME_WITHOUT_TIME_ZONE(Family.DATETIME),
    TIMESTAMP_WITHOUT_TIME_ZONE(Family.DATETIME),
    TIMESTAMP_WITH_LOCAL_TIME_ZONE(Family.DATETIME),
    VARIANT(Family.CONSTRUCTED),
    ARRAY(Family.CONSTRUCTED),
    MULTISET(Family.CONSTRUCTED),
    MAP(Family.CONSTRUCTED),
    ROW(Family.CONSTRUCTED);

    /** Coarse grouping of roots. */
    public enum Family {
        PREDEFINED,
        CHARACTER_STRING,
        BINARY_STRING,
        NUMERIC,
        DATETIME,
        CONSTRUCTED
    }

    private final Family family;

    DataTypeRoot(Family family) {
        this.family = family;
    }

    public Family family() {
        return family;
    }

    /** Whether values of this root are nested structures (no min/max statistics, never keys). */
    public boolean isNested() {
        return this == ARRAY || this == MULTISET || this == MAP || this == ROW || this == VARIANT;
    }
}
