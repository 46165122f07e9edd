package dev.streamhouse.sqlrunner;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.util.List;

import org.jline.terminal.Terminal;
import org.jline.terminal.impl.DumbTerminal;

/**
 * The terminal the SQL client gets for {@code -f}: a dumb terminal on standard output (what the
 * client would create itself, since bin/flink-sql pipes its output), except for {@link #output()}.
 * The client writes its results through {@link #writer()}, but hands {@link #output()} to the line
 * reader that reads the script, so the line reader's writes go to {@link StatementEcho}.
 */
final class ScriptTerminal extends DumbTerminal {
    private final OutputStream lineReaderOutput;

    private ScriptTerminal(StatementEcho echo, Charset charset) throws IOException {
        super("Flink SQL CLI Client", Terminal.TYPE_DUMB, InputStream.nullInputStream(), echo.clientOutput(), charset);
        this.lineReaderOutput = echo.lineReaderOutput();
    }

    static Terminal create(List<String> statements) {
        Charset charset = Charset.defaultCharset();
        try {
            return new ScriptTerminal(new StatementEcho(statements, new FileOutputStream(FileDescriptor.out), charset), charset);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public OutputStream output() {
        return lineReaderOutput;
    }
}
