package dev.streamhouse.storage.data;

/** The change a row represents. The byte values are stored in data files ({@code _VALUE_KIND}). */
public enum RowKind {
    INSERT("+I", (byte) 0),
    UPDATE_BEFORE("-U", (byte) 1),
    UPDATE_AFTER("+U", (byte) 2),
    DELETE("-D", (byte) 3);

    private final String shortString;
    private final byte value;

    RowKind(String shortString, byte value) {
        this.shortString = shortString;
        this.value = value;
    }

    public String shortString() {
        return shortString;
    }

    public byte toByteValue() {
        return value;
    }

    /** Whether this kind removes a previous version (-U or -D). */
    public boolean isRetract() {
        return this == UPDATE_BEFORE || this == DELETE;
    }

    public static RowKind fromByteValue(byte value) {
        switch (value) {
            case 0:
                return INSERT;
            case 1:
                return UPDATE_BEFORE;
            case 2:
                return UPDATE_AFTER;
            case 3:
                return DELETE;
            default:
                throw new IllegalArgumentException("Unknown row kind byte " + value);
        }
    }
}
