package dev.streamhouse.storage.mergetree.lookup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.options.Options;

import org.junit.jupiter.api.Test;

class LookupFileSettingsTest {

    @Test
    void defaultsAreSortedFilesIn64KibBlocksWith5PercentBloomFilters() {
        LookupFileSettings d = LookupFileSettings.defaults();
        assertThat(d.fileType()).isEqualTo(LookupFileType.SORT);
        assertThat(d.blockSizeBytes()).isEqualTo(64 << 10);
        assertThat(d.bloomFilterEnabled()).isTrue();
        assertThat(d.bloomFilterFpp()).isEqualTo(0.05);
        assertThat(d.hashLoadFactor()).isEqualTo(0.75);
    }

    @Test
    void tableOptionsSetEveryField() {
        LookupFileSettings s = LookupFileSettings.from(Options.of(
                "lookup.local-file-type", "hash",
                "cache-page-size", "4 kb",
                "lookup.cache.bloom.filter.enabled", "false",
                "lookup.cache.bloom.filter.fpp", "0.2",
                "lookup.hash-load-factor", "0.5"));
        assertThat(s).isEqualTo(new LookupFileSettings(LookupFileType.HASH, 4096, false, 0.2, 0.5));
    }

    @Test
    void invalidValuesAreRefusedNamingTheOption() {
        assertThatThrownBy(() -> LookupFileSettings.defaults().withBloomFilterFpp(1.0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'lookup.cache.bloom.filter.fpp'");
        assertThatThrownBy(() -> LookupFileSettings.defaults().withBlockSizeBytes(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("block size");
        assertThatThrownBy(() -> new LookupFileSettings(LookupFileType.HASH, 1024, true, 0.05, 1.0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'lookup.hash-load-factor'");
        assertThatThrownBy(() -> LookupFileType.of("btree"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'sort' or 'hash'");
        assertThat(LookupFileType.of("SORT")).isEqualTo(LookupFileType.SORT);
    }
}
