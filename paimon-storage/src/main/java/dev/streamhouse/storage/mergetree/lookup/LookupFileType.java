package dev.streamhouse.storage.mergetree.lookup;

/** The layout of a local lookup file ({@code lookup.local-file-type}). */
public enum LookupFileType {
    /** Records in key order in blocks, with an in-heap sparse index of each block's first key. */
    SORT("sort"),
    /** Records in file order and an on-disk hash table of them; only the Bloom filter lives in heap. */
    HASH("hash");

    private final String optionValue;

    LookupFileType(String optionValue) {
        this.optionValue = optionValue;
    }

    /** The value of {@code lookup.local-file-type} naming this layout. */
    public String optionValue() {
        return optionValue;
    }

    /** The layout named by a value of {@code lookup.local-file-type} (case-insensitive). */
    public static LookupFileType of(String optionValue) {
        for (LookupFileType t : values()) {
            if (t.optionValue.equalsIgnoreCase(optionValue)) {
                return t;
            }
        }
        throw new IllegalArgumentException("Cannot use lookup file type '" + optionValue
                + "': 'lookup.local-file-type' must be 'sort' or 'hash'");
    }
}
