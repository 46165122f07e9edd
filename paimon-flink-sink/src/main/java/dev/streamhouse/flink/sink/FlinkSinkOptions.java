package dev.streamhouse.flink.sink;

import dev.streamhouse.storage.options.ConfigOption;

/** Table options that the Flink sink reads (besides the storage's write options, passed through). */
public final class FlinkSinkOptions {
    private FlinkSinkOptions() {}

    public static final ConfigOption<Integer> SINK_PARALLELISM =
            ConfigOption.key("sink.parallelism").intType().noDefaultValue()
                    .withDescription("Parallelism of the sink's writers; defaults to the parallelism of its input.");
}
