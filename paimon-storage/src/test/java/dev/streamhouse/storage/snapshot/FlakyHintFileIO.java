package dev.streamhouse.storage.snapshot;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.ForwardingFileIO;
import dev.streamhouse.storage.fs.Path;

import java.io.IOException;

/** Delegates to a real FileIO but fails every {@link #overwrite} (as hint writes on a flaky store). */
final class FlakyHintFileIO extends ForwardingFileIO {
    private static final long serialVersionUID = 1L;

    FlakyHintFileIO(FileIO delegate) {
        super(delegate);
    }

    @Override
    public void overwrite(Path path, byte[] content) throws IOException {
        throw new IOException("injected failure overwriting " + path);
    }
}
