package dev.streamhouse.storage.manifest;

/** Where a data file came from ({@code _FILE_SOURCE}). */
public enum FileSource {
    /** New input written by a writer. */
    APPEND((byte) 0),
    /** Output of a compaction. */
    COMPACT((byte) 1);

    private final byte value;

    FileSource(byte value) {
        this.value = value;
    }

    public byte toByteValue() {
        return value;
    }

    public static FileSource fromByteValue(int value) {
        switch (value) {
            case 0:
                return APPEND;
            case 1:
                return COMPACT;
            default:
                throw new IllegalArgumentException("Unknown file source " + value);
        }
    }
}
