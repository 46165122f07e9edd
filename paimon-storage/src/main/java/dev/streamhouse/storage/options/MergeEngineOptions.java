package dev.streamhouse.storage.options;

import java.time.Duration;

/**
 * Options of the partial-update and aggregation merge engines, and of column defaults and record
 * expiration in compaction (Paimon's keys and defaults). The engines read them; the last three are not
 * implemented, and as each changes which rows or values a query returns, every value but the default
 * is refused, and a table that stores one is not read.
 */
public final class MergeEngineOptions {
    private MergeEngineOptions() {}

    public static final ConfigOption<Boolean> PARTIAL_UPDATE_REMOVE_RECORD_ON_DELETE =
            ConfigOption.key("partial-update.remove-record-on-delete").booleanType().defaultValue(false)
                    .withDescription("Partial-update: a -D removes the whole row.").immutable();

    public static final ConfigOption<String> PARTIAL_UPDATE_REMOVE_RECORD_ON_SEQUENCE_GROUP =
            ConfigOption.key("partial-update.remove-record-on-sequence-group").stringType().noDefaultValue()
                    .withDescription("Partial-update: a -D of these sequence groups removes the whole row.")
                    .immutable();

    public static final ConfigOption<Boolean> AGGREGATION_REMOVE_RECORD_ON_DELETE =
            ConfigOption.key("aggregation.remove-record-on-delete").booleanType().defaultValue(false)
                    .withDescription("Aggregation: a -D removes the whole row.").immutable();

    public static final ConfigOption<String> FIELDS_DEFAULT_AGGREGATE_FUNCTION =
            ConfigOption.key("fields.default-aggregate-function").stringType().noDefaultValue()
                    .withDescription("Aggregate function of every column without its own "
                            + "'fields.<field>.aggregate-function'.").affectingReads();

    public static final OptionPattern FIELD_AGGREGATE_FUNCTION = OptionPattern.of(
            ConfigOption.key("fields.<field>.aggregate-function").stringType().noDefaultValue()
                    .withDescription("Aggregate function of the column (sum, max, last_value, ...).")
                    .affectingReads());

    public static final OptionPattern FIELD_IGNORE_RETRACT = OptionPattern.of(
            ConfigOption.key("fields.<field>.ignore-retract").booleanType().defaultValue(false)
                    .withDescription("Aggregation: retractions of the column are ignored.")
                    .affectingReads());

    public static final OptionPattern FIELD_SEQUENCE_GROUP = OptionPattern.of(
            ConfigOption.key("fields.<field>.sequence-group").stringType().noDefaultValue()
                    .withDescription("Partial-update: the columns this sequence column orders.")
                    .affectingReads());

    public static final OptionPattern FIELD_DISTINCT = OptionPattern.of(
            ConfigOption.key("fields.<field>.distinct").booleanType().defaultValue(false)
                    .withDescription("Aggregation 'collect': keep distinct elements only.")
                    .affectingReads());

    public static final OptionPattern FIELD_LIST_AGG_DELIMITER = OptionPattern.of(
            ConfigOption.key("fields.<field>.list-agg-delimiter").stringType().defaultValue(",")
                    .withDescription("Aggregation 'listagg': the delimiter.")
                    .affectingReads());

    public static final OptionPattern FIELD_NESTED_KEY = OptionPattern.of(
            ConfigOption.key("fields.<field>.nested-key").stringType().noDefaultValue()
                    .withDescription("Aggregation 'nested_update': the key columns of the nested rows.")
                    .affectingReads());

    public static final OptionPattern FIELD_COUNT_LIMIT = OptionPattern.of(
            ConfigOption.key("fields.<field>.count-limit").intType().defaultValue(Integer.MAX_VALUE)
                    .withDescription("Aggregation 'nested_update': most nested rows kept.")
                    .affectingReads());

    public static final OptionPattern FIELD_DEFAULT_VALUE = OptionPattern.of(
            ConfigOption.key("fields.<field>.default-value").stringType().noDefaultValue()
                    .withDescription("Value written for the column when a row has NULL in it.")
                    .notSupportedYet("column default values are not implemented"));

    public static final ConfigOption<Duration> RECORD_LEVEL_EXPIRE_TIME =
            ConfigOption.key("record-level.expire-time").durationType().noDefaultValue()
                    .withDescription("Compaction drops rows whose 'record-level.time-field' is older than this.")
                    .notSupportedYet("record-level expiration is not implemented");

    public static final ConfigOption<String> RECORD_LEVEL_TIME_FIELD =
            ConfigOption.key("record-level.time-field").stringType().noDefaultValue()
                    .withDescription("Time column that record-level expiration reads.")
                    .notSupportedYet("record-level expiration is not implemented");
}
