package dev.streamhouse.storage.options;

/**
 * How far this store honours an option that Apache Paimon defines. Every option Paimon 1.3 declares
 * has one of these statuses here, so that no option is ever silently ignored.
 */
public enum OptionStatus {
    /** Implemented with Paimon's meaning (possibly for some values only, see {@link ConfigOption#statusNote()}). */
    SUPPORTED("supported"),
    /** Not implemented: any value but the default is refused with "option 'x' is not supported yet". */
    NOT_SUPPORTED("not supported yet (refused)"),
    /**
     * Not implemented, accepted with a warning naming it. Only options that shape maintenance or
     * performance, never the rows a query returns, have this status.
     */
    NO_EFFECT("no effect yet (accepted with a warning)");

    private final String label;

    OptionStatus(String label) {
        this.label = label;
    }

    /** How the status reads in the option table of the documentation. */
    public String label() {
        return label;
    }
}
