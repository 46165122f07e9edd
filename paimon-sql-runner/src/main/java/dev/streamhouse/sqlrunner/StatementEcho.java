package dev.streamhouse.sqlrunner;

import dev.streamhouse.storage.options.SecretOptions;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Shows each statement of a {@code -f} script in full, just before the SQL client runs it.
 *
 * <p>Flink 1.20's SQL client reads a script through a jline line reader on a "dumb" terminal and runs
 * each statement from inside that reader, at the line break that completes it. On a dumb terminal the
 * reader does not redraw its line after each character; it only draws the prompt when it starts a
 * line and what it has read so far each time it reads a {@code )} (to show the matching parenthesis).
 * So the client's own echo of a statement stops at its last {@code )}: nothing for
 * {@code SET 'k' = 'v';}, {@code INSERT INTO t SELECT CAST('abc' AS INT)} for
 * {@code INSERT INTO t SELECT CAST('abc' AS INT), 'x';}.
 *
 * <p>Here that echo is dropped and replaced: the line reader writes to {@link #lineReaderOutput()}
 * and everything else of the client (results, messages) to {@link #clientOutput()}. The line reader
 * writes only while it reads a statement, and its first write after any output of the client is the
 * prompt of the next statement: at that moment the next statement of {@link ScriptStatements} is
 * printed, as {@code Flink SQL> } and its lines (continuation lines after {@code > }).
 */
final class StatementEcho {
    static final String PROMPT = "Flink SQL> ";
    static final String CONTINUATION = "> ";

    private final OutputStream out;
    private final Charset charset;
    private final Deque<String> statements;
    /** Guarded by this: whether the line reader has written since the client last did. */
    private boolean lineReaderWrote;

    StatementEcho(List<String> statements, OutputStream out, Charset charset) {
        this.statements = new ArrayDeque<>(statements);
        this.out = out;
        this.charset = charset;
    }

    /** The stream for the client's own output: passed through. */
    OutputStream clientOutput() {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                synchronized (StatementEcho.this) {
                    lineReaderWrote = false;
                    out.write(b);
                }
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                synchronized (StatementEcho.this) {
                    lineReaderWrote = false;
                    out.write(b, off, len);
                }
            }

            @Override
            public void flush() throws IOException {
                out.flush();
            }
        };
    }

    /** The stream for the line reader's prompt and echo: dropped, the statement is printed instead. */
    OutputStream lineReaderOutput() {
        return new OutputStream() {
            @Override
            public void write(int b) {
                lineReaderWrites();
            }

            @Override
            public void write(byte[] b, int off, int len) {
                if (len > 0) {
                    lineReaderWrites();
                }
            }
        };
    }

    private synchronized void lineReaderWrites() {
        if (lineReaderWrote) {
            return;
        }
        lineReaderWrote = true;
        String next = statements.poll();
        if (next == null) {
            return;
        }
        try {
            out.write(format(next).getBytes(charset));
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code 'key' = 'value'} in a statement (options of CREATE CATALOG / TABLE, SET, hints). */
    private static final Pattern KEY_VALUE = Pattern.compile("'((?:[^']|'')*)'(\\s*=\\s*)'((?:[^']|'')*)'");

    /**
     * {@code Flink SQL> first line}, then {@code > line} for each further line; blank lines before it dropped.
     * The values of credential options ({@code 's3.secret-key' = '...'}, passwords) are shown masked.
     */
    static String format(String statement) {
        String[] lines = masked(statement).split("\n", -1);
        int first = 0;
        while (first < lines.length - 1 && lines[first].isBlank()) {
            first++;
        }
        StringBuilder text = new StringBuilder(PROMPT).append(lines[first]).append('\n');
        for (int i = first + 1; i < lines.length; i++) {
            text.append(CONTINUATION).append(lines[i]).append('\n');
        }
        return text.toString();
    }

    static String masked(String statement) {
        Matcher m = KEY_VALUE.matcher(statement);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String shown = SecretOptions.isSecret(m.group(1))
                    ? "'" + m.group(1) + "'" + m.group(2) + "'" + SecretOptions.MASK + "'" : m.group();
            m.appendReplacement(out, Matcher.quoteReplacement(shown));
        }
        return m.appendTail(out).toString();
    }
}
