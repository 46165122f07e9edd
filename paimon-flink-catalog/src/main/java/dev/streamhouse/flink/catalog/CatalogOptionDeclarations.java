package dev.streamhouse.flink.catalog;

import dev.streamhouse.flink.catalog.connector.ScanWatermarkOptions;
import dev.streamhouse.storage.options.OptionDeclarations;

import java.util.List;

/** The options of the Flink catalog and its table source, for the option registry. */
public final class CatalogOptionDeclarations implements OptionDeclarations {

    @Override
    public List<Group> groups() {
        return List.of(
                Group.ofHolder("Flink table keys", Kind.TABLE, CatalogTableOptions.class),
                Group.ofHolder("Flink watermarks", Kind.TABLE, ScanWatermarkOptions.class),
                Group.ofHolder("Flink catalog", Kind.CATALOG, FlinkCatalogOptions.class));
    }
}
