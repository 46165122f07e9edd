package dev.streamhouse.flink.sink;

import dev.streamhouse.storage.options.OptionDeclarations;

import java.util.List;

/** The table options of the Flink sink, for the option registry. */
public final class SinkOptionDeclarations implements OptionDeclarations {

    @Override
    public List<Group> groups() {
        return List.of(Group.ofHolder("Flink sink", Kind.TABLE, FlinkSinkOptions.class));
    }
}
