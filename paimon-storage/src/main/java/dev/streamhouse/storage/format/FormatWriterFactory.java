package dev.streamhouse.storage.format;

import dev.streamhouse.storage.fs.PositionOutputStream;

import java.io.IOException;
import java.io.Serializable;

/** Creates writers of one file format for a fixed row type and configuration. */
public interface FormatWriterFactory extends Serializable {

    /** A writer into {@code out}; the writer closes {@code out} when it is closed. */
    FormatWriter create(PositionOutputStream out) throws IOException;
}
