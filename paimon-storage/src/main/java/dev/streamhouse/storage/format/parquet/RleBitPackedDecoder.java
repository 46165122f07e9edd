package dev.streamhouse.storage.format.parquet;

import java.io.IOException;
import java.util.Arrays;

/**
 * Decodes Parquet's RLE / bit-packing hybrid encoding (definition levels, dictionary ids, booleans of
 * v2 pages) from a byte range, following the format specification: a sequence of runs, each headed by
 * an unsigned varint; an even header {@code h} is a run of {@code h >>> 1} repetitions of one value
 * stored little-endian in {@code ceil(bitWidth / 8)} bytes, an odd header a run of {@code (h >>> 1) * 8}
 * values bit-packed least significant bit first. A bit-packed run may pad its last group: only the values
 * asked for are used. Malformed input (a run past the end of the range) fails with an
 * {@link IOException}.
 */
final class RleBitPackedDecoder implements IntDecoder {
    private final int bitWidth;
    private final byte[] data;
    private int pos;
    private final int end;

    /** Values left in the current run. */
    private int remaining;
    private boolean rle;
    private int rleValue;
    /** Bit-packed runs: position in bits from {@code data[0]}. */
    private long bitPos;

    RleBitPackedDecoder(int bitWidth, byte[] data, int offset, int length) {
        if (bitWidth < 0 || bitWidth > 32) {
            throw new IllegalArgumentException("Invalid bit width " + bitWidth + " of RLE / bit-packed values");
        }
        this.bitWidth = bitWidth;
        this.data = data;
        this.pos = offset;
        this.end = offset + length;
    }

    /** The number of bits needed for values up to {@code maxValue}. */
    static int bitWidth(int maxValue) {
        return 32 - Integer.numberOfLeadingZeros(maxValue);
    }

    private void nextRun() throws IOException {
        if (pos >= end) {
            throw new IOException("RLE / bit-packed data ended before all values were read");
        }
        int header = readUnsignedVarInt();
        if ((header & 1) == 0) {
            rle = true;
            remaining = header >>> 1;
            int bytes = (bitWidth + 7) / 8;
            if (pos + bytes > end) {
                throw new IOException("RLE run value past the end of the data");
            }
            int v = 0;
            for (int i = 0; i < bytes; i++) {
                v |= (data[pos++] & 0xFF) << (8 * i);
            }
            rleValue = v;
        } else {
            rle = false;
            int groups = header >>> 1;
            remaining = groups * 8;
            bitPos = (long) pos * 8;
            long bytes = (long) groups * bitWidth;
            // the last run may be truncated by writers that omit padding: read what is there
            pos = (int) Math.min(end, pos + bytes);
        }
        if (remaining == 0 && pos >= end) {
            throw new IOException("RLE / bit-packed data ended before all values were read");
        }
    }

    private int readUnsignedVarInt() throws IOException {
        int value = 0;
        int shift = 0;
        while (true) {
            if (pos >= end) {
                throw new IOException("RLE / bit-packed run header past the end of the data");
            }
            int b = data[pos++] & 0xFF;
            value |= (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
            shift += 7;
            if (shift > 28) {
                throw new IOException("RLE / bit-packed run header is not a valid varint");
            }
        }
    }

    /** The next single value. */
    int readInt() throws IOException {
        while (remaining == 0) {
            nextRun();
        }
        remaining--;
        return rle ? rleValue : unpackOne();
    }

    @Override
    public void read(int[] out, int offset, int n) throws IOException {
        while (n > 0) {
            while (remaining == 0) {
                nextRun();
            }
            int take = Math.min(n, remaining);
            if (rle) {
                Arrays.fill(out, offset, offset + take, rleValue);
            } else {
                for (int i = 0; i < take; i++) {
                    out[offset + i] = unpackOne();
                }
            }
            remaining -= take;
            offset += take;
            n -= take;
        }
    }

    /**
     * Makes the next run current if the current one is used up and returns how many of its values are
     * left, at most {@code max}: callers that can use a run at once (a run of one definition level is a
     * block of nulls or non-nulls) ask {@link #inRleRun()} and {@link #runValue()}, then
     * {@link #skip} or {@link #read} that many.
     */
    int runLength(int max) throws IOException {
        while (remaining == 0) {
            nextRun();
        }
        return Math.min(max, remaining);
    }

    /** Whether the current run repeats one value ({@link #runValue()}). */
    boolean inRleRun() {
        return rle;
    }

    int runValue() {
        return rleValue;
    }

    @Override
    public void skip(int n) throws IOException {
        while (n > 0) {
            while (remaining == 0) {
                nextRun();
            }
            int take = Math.min(n, remaining);
            if (!rle) {
                bitPos += (long) take * bitWidth;
            }
            remaining -= take;
            n -= take;
        }
    }

    private int unpackOne() throws IOException {
        if (bitWidth == 0) {
            return 0;
        }
        int byteIndex = (int) (bitPos >>> 3);
        int shift = (int) (bitPos & 7);
        int needed = shift + bitWidth;
        long word = 0;
        int nBytes = (needed + 7) >>> 3;
        if (byteIndex + nBytes > end) {
            throw new IOException("Bit-packed run past the end of the data");
        }
        for (int i = 0; i < nBytes; i++) {
            word |= (long) (data[byteIndex + i] & 0xFF) << (8 * i);
        }
        bitPos += bitWidth;
        return (int) ((word >>> shift) & ((1L << bitWidth) - 1));
    }
}
