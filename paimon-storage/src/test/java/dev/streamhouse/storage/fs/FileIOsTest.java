package dev.streamhouse.storage.fs;

import dev.streamhouse.storage.options.Options;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The file IO of a path is chosen by its scheme among the loaders on the classpath. */
class FileIOsTest {

    @Test
    void localPathsAndFileUrisGetTheLocalFileIO() {
        assertThat(FileIOs.forPath(new Path("/tmp/wh"), new Options())).isSameAs(LocalFileIO.INSTANCE);
        assertThat(FileIOs.forPath(new Path("file:///tmp/wh"), new Options())).isSameAs(LocalFileIO.INSTANCE);
        assertThat(FileIOs.forPath(new Path("FILE:/tmp/wh"), new Options())).isSameAs(LocalFileIO.INSTANCE);
    }

    @Test
    void anUnknownSchemeIsRefusedNamingWhatIsSupported() {
        // (s3 and s3a are served by the paimon-s3 module, which this module's tests do not see.)
        assertThatThrownBy(() -> FileIOs.forPath(new Path("oss://bucket/wh"), new Options()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot open oss://bucket/wh: scheme 'oss' is not supported yet (supported: file, hdfs, "
                        + "viewfs; local paths have no scheme)");
    }
}
