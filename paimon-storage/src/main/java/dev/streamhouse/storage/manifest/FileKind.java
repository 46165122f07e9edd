package dev.streamhouse.storage.manifest;

/** Whether a manifest entry adds or deletes a file ({@code _KIND}). */
public enum FileKind {
    ADD((byte) 0),
    DELETE((byte) 1);

    private final byte value;

    FileKind(byte value) {
        this.value = value;
    }

    public byte toByteValue() {
        return value;
    }

    public static FileKind fromByteValue(int value) {
        switch (value) {
            case 0:
                return ADD;
            case 1:
                return DELETE;
            default:
                throw new IllegalArgumentException("Unknown manifest entry kind " + value);
        }
    }
}
