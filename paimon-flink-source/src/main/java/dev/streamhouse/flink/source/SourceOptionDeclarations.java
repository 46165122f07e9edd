package dev.streamhouse.flink.source;

import dev.streamhouse.flink.source.lookup.LookupJoinOptions;
import dev.streamhouse.storage.options.OptionDeclarations;

import java.util.List;

/** The table options of the Flink source, for the option registry. */
public final class SourceOptionDeclarations implements OptionDeclarations {

    @Override
    public List<Group> groups() {
        return List.of(Group.ofHolder("Flink source", Kind.TABLE, PaimonSourceOptions.class),
                Group.ofHolder("Lookup joins", Kind.TABLE, LookupJoinOptions.class));
    }
}
