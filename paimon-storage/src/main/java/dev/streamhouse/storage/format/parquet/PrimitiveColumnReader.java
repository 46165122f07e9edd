package dev.streamhouse.storage.format.parquet;

import dev.streamhouse.storage.data.columnar.HeapVector;

import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ValuesType;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.column.values.ValuesReader;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Decodes one top-level primitive column of a row group into a {@link HeapVector}, page by page,
 * straight from parquet-mr's {@link PageReader} (no record assembly). Definition levels and
 * dictionary ids (RLE / bit-packed hybrid) and PLAIN values are decoded here; other value encodings
 * (delta, byte-stream-split, RLE booleans) go through parquet-mr's own {@link ValuesReader}s, value by
 * value. Dictionaries are decoded once per column chunk; subclasses keep them in their value type.
 *
 * <p>Rows are read in increasing row order, possibly with gaps ({@link #read}): rows of a page that are
 * not asked for are skipped, pages that hold none are never decoded (with page-index filtering the page
 * store leaves them out altogether; each page then says its first row). Subclasses decode one physical
 * type into one kind of vector. Not thread-safe.
 */
abstract class PrimitiveColumnReader {
    private enum Mode { PLAIN, DICTIONARY, FALLBACK }

    protected final ColumnDescriptor descriptor;
    private final PageReader pages;
    private final int maxDefinition;

    private long pageFirstRow;
    private int pageRows;
    private int pageRowsRead;
    private long nextPageFirstRow;
    private boolean pageLoaded;

    private IntDecoder definitions;
    private RleBitPackedDecoder rleDefinitions;
    private int[] levels = new int[256];

    private Mode mode;
    /** PLAIN values: the page bytes and the position of the next value. */
    protected byte[] data;
    protected int dataPosition;
    protected int dataEnd;
    private RleBitPackedDecoder ids;
    private int[] idScratch = new int[256];
    protected ValuesReader fallback;
    private boolean hasDictionary;

    PrimitiveColumnReader(ColumnDescriptor descriptor, PageReader pages) throws IOException {
        this.descriptor = descriptor;
        this.pages = pages;
        this.maxDefinition = descriptor.getMaxDefinitionLevel();
        if (descriptor.getMaxRepetitionLevel() != 0) {
            throw new IOException("Cannot decode column " + String.join(".", descriptor.getPath())
                    + " as a flat column: it is repeated");
        }
        DictionaryPage dictionaryPage = pages.readDictionaryPage();
        if (dictionaryPage != null) {
            Dictionary dictionary = dictionaryPage.getEncoding().initDictionary(descriptor, dictionaryPage);
            prepareDictionary(dictionary);
            hasDictionary = true;
        }
    }

    /** A vector this reader can fill, of at least {@code capacity} rows. */
    abstract HeapVector newVector(int capacity);

    /** Keeps the dictionary's values in this reader's value type. */
    abstract void prepareDictionary(Dictionary dictionary) throws IOException;

    /** Decodes {@code n} PLAIN values from {@link #data} at {@link #dataPosition} into rows {@code [offset, offset + n)}. */
    abstract void readPlain(HeapVector vector, int offset, int n) throws IOException;

    /** Skips {@code n} PLAIN values. */
    abstract void skipPlain(int n) throws IOException;

    /** Sets rows {@code [offset, offset + n)} to the dictionary entries {@code ids[0, n)}. */
    abstract void readDictionary(HeapVector vector, int offset, int[] ids, int n) throws IOException;

    /** Reads {@code n} values from {@link #fallback} into rows {@code [offset, offset + n)}. */
    abstract void readFallback(HeapVector vector, int offset, int n) throws IOException;

    /** Called when a PLAIN page starts (e.g. booleans track a bit position). */
    void startPlainPage() {}

    /**
     * Reads rows {@code [firstRow, firstRow + count)} of the row group into {@code vector} rows
     * {@code [offset, offset + count)}. {@code firstRow} must not precede rows already read.
     */
    final void read(long firstRow, int count, HeapVector vector, int offset) throws IOException {
        long row = firstRow;
        while (count > 0) {
            if (!pageLoaded || row >= pageFirstRow + pageRows) {
                nextPage(row);
                continue;
            }
            long position = pageFirstRow + pageRowsRead;
            if (row < position) {
                throw new IOException("Cannot read row " + row + " of column " + columnName()
                        + ": rows up to " + position + " were already read");
            }
            if (row > position) {
                int skip = (int) (row - position);
                skipInPage(skip);
                continue;
            }
            int n = (int) Math.min(count, pageRows - pageRowsRead);
            readInPage(vector, offset, n);
            row += n;
            offset += n;
            count -= n;
        }
    }

    private String columnName() {
        return String.join(".", descriptor.getPath());
    }

    /** Loads the next page that may hold {@code row}. */
    private void nextPage(long row) throws IOException {
        DataPage page = pages.readPage();
        if (page == null) {
            throw new IOException("Column " + columnName() + " has no page with row " + row
                    + " although its row group has that row");
        }
        pageFirstRow = page.getFirstRowIndex().orElse(nextPageFirstRow);
        pageRowsRead = 0;
        pageLoaded = true;
        if (page instanceof DataPageV1) {
            DataPageV1 v1 = (DataPageV1) page;
            pageRows = v1.getValueCount();
            nextPageFirstRow = pageFirstRow + pageRows;
            if (row >= nextPageFirstRow) {
                return; // no wanted row in this page: do not decode it
            }
            ByteBuffer buffer = heap(v1.getBytes());
            byte[] bytes = buffer.array();
            int start = buffer.arrayOffset() + buffer.position();
            int end = start + buffer.remaining();
            int position = start;
            definitions = null;
            rleDefinitions = null;
            if (maxDefinition > 0) {
                position = initV1Definitions(v1.getDlEncoding(), bytes, start, end);
            }
            initValues(v1.getValueEncoding(), bytes, position, end - position, pageRows);
        } else if (page instanceof DataPageV2) {
            DataPageV2 v2 = (DataPageV2) page;
            pageRows = v2.getRowCount();
            nextPageFirstRow = pageFirstRow + pageRows;
            if (row >= nextPageFirstRow) {
                return;
            }
            definitions = null;
            rleDefinitions = null;
            if (maxDefinition > 0) {
                ByteBuffer levels = heap(v2.getDefinitionLevels());
                rleDefinitions = new RleBitPackedDecoder(RleBitPackedDecoder.bitWidth(maxDefinition), levels.array(),
                        levels.arrayOffset() + levels.position(), levels.remaining());
                definitions = rleDefinitions;
            }
            ByteBuffer data = heap(v2.getData());
            initValues(v2.getDataEncoding(), data.array(), data.arrayOffset() + data.position(), data.remaining(),
                    v2.getValueCount());
        } else {
            throw new IOException("Cannot read column " + columnName() + ": unknown page type "
                    + page.getClass().getName());
        }
    }

    /** The bytes of a page as a heap buffer: the decompressed page itself when it is on the heap, else a copy. */
    private static ByteBuffer heap(BytesInput bytes) throws IOException {
        ByteBuffer buffer = bytes.toByteBuffer();
        if (buffer.hasArray()) {
            return buffer;
        }
        byte[] copy = new byte[buffer.remaining()];
        buffer.duplicate().get(copy);
        return ByteBuffer.wrap(copy);
    }

    /** Sets up the definition levels of a v1 page in {@code bytes[start, end)}; returns where its values start. */
    private int initV1Definitions(Encoding encoding, byte[] bytes, int start, int end) throws IOException {
        if (encoding == Encoding.RLE) {
            if (end - start < 4) {
                throw new IOException("Page of column " + columnName() + " is too short for its definition levels");
            }
            int length = (bytes[start] & 0xFF) | (bytes[start + 1] & 0xFF) << 8 | (bytes[start + 2] & 0xFF) << 16
                    | (bytes[start + 3] & 0xFF) << 24;
            if (length < 0 || length > end - start - 4) {
                throw new IOException("Page of column " + columnName() + " has definition levels of " + length
                        + " bytes, more than the page holds");
            }
            rleDefinitions = new RleBitPackedDecoder(RleBitPackedDecoder.bitWidth(maxDefinition), bytes, start + 4,
                    length);
            definitions = rleDefinitions;
            return start + 4 + length;
        }
        ValuesReader levels = encoding.getValuesReader(descriptor, ValuesType.DEFINITION_LEVEL);
        ByteBufferInputStream in = ByteBufferInputStream.wrap(ByteBuffer.wrap(bytes, start, end - start));
        levels.initFromPage(pageRows, in);
        definitions = new ValuesReaderIntDecoder(levels);
        return start + (int) in.position();
    }

    private void initValues(Encoding encoding, byte[] bytes, int offset, int length, int valueCount)
            throws IOException {
        fallback = null;
        ids = null;
        data = null;
        if (encoding == Encoding.PLAIN) {
            mode = Mode.PLAIN;
            data = bytes;
            dataPosition = offset;
            dataEnd = offset + length;
            startPlainPage();
        } else if (encoding == Encoding.PLAIN_DICTIONARY || encoding == Encoding.RLE_DICTIONARY) {
            if (!hasDictionary) {
                throw new IOException("Page of column " + columnName() + " is dictionary-encoded, but its column chunk"
                        + " has no dictionary page");
            }
            mode = Mode.DICTIONARY;
            int bitWidth = length == 0 ? 0 : bytes[offset] & 0xFF;
            ids = new RleBitPackedDecoder(bitWidth, bytes, offset + 1, Math.max(0, length - 1));
        } else {
            mode = Mode.FALLBACK;
            fallback = encoding.getValuesReader(descriptor, ValuesType.VALUES);
            fallback.initFromPage(valueCount, ByteBufferInputStream.wrap(ByteBuffer.wrap(bytes, offset, length)));
        }
    }

    /** Reads {@code n} rows of the current page. */
    private void readInPage(HeapVector vector, int offset, int n) throws IOException {
        pageRowsRead += n;
        if (definitions == null) {
            readValues(vector, offset, n);
            return;
        }
        int done = 0;
        while (done < n) {
            if (rleDefinitions != null) {
                int run = rleDefinitions.runLength(n - done);
                if (rleDefinitions.inRleRun()) {
                    rleDefinitions.skip(run);
                    if (rleDefinitions.runValue() == maxDefinition) {
                        readValues(vector, offset + done, run);
                    } else {
                        vector.setNulls(offset + done, run);
                    }
                    done += run;
                    continue;
                }
                int take = Math.min(run, levels.length);
                rleDefinitions.read(levels, 0, take);
                scatter(vector, offset + done, take);
                done += take;
            } else {
                int take = Math.min(n - done, levels.length);
                definitions.read(levels, 0, take);
                scatter(vector, offset + done, take);
                done += take;
            }
        }
    }

    /** Values for rows whose levels are in {@code levels[0, n)}: runs of non-null values, nulls between. */
    private void scatter(HeapVector vector, int offset, int n) throws IOException {
        int i = 0;
        while (i < n) {
            if (levels[i] != maxDefinition) {
                vector.setNull(offset + i);
                i++;
                continue;
            }
            int start = i;
            while (i < n && levels[i] == maxDefinition) {
                i++;
            }
            readValues(vector, offset + start, i - start);
        }
    }

    private void skipInPage(int n) throws IOException {
        pageRowsRead += n;
        int nonNull;
        if (definitions == null) {
            nonNull = n;
        } else {
            nonNull = 0;
            int done = 0;
            while (done < n) {
                int take = Math.min(n - done, levels.length);
                definitions.read(levels, 0, take);
                for (int i = 0; i < take; i++) {
                    if (levels[i] == maxDefinition) {
                        nonNull++;
                    }
                }
                done += take;
            }
        }
        switch (mode) {
            case PLAIN:
                skipPlain(nonNull);
                break;
            case DICTIONARY:
                ids.skip(nonNull);
                break;
            default:
                fallback.skip(nonNull);
        }
    }

    /** {@code n} non-null values into consecutive rows. */
    private void readValues(HeapVector vector, int offset, int n) throws IOException {
        switch (mode) {
            case PLAIN:
                readPlain(vector, offset, n);
                break;
            case DICTIONARY:
                for (int done = 0; done < n; ) {
                    int take = Math.min(n - done, idScratch.length);
                    ids.read(idScratch, 0, take);
                    readDictionary(vector, offset + done, idScratch, take);
                    done += take;
                }
                break;
            default:
                readFallback(vector, offset, n);
        }
    }

    /** Fails unless {@code bytes} more PLAIN bytes are in the page. */
    protected final void requirePlain(long bytes) throws IOException {
        if (dataPosition + bytes > dataEnd) {
            throw new IOException("Page of column " + columnName() + " ends in the middle of its values");
        }
    }
}
