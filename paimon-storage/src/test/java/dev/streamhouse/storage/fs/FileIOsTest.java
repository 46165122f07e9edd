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
        assertThatThrownBy(() -> FileIOs.forPath(new Path("s3://bucket/wh"), new Options()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot open s3://bucket/wh: scheme 's3' is not supported yet (supported: file; local "
                        + "paths have no scheme)");
    }
}
