/**
 * A minimal protocol-buffers writer: the few wire types ONNX's ModelProto needs (varint, 32-bit
 * float, length-delimited). Encoding only: onnxruntime reads the models, nothing here parses them.
 * (A generated schema such as onnx-proto would pull protobufjs 6 and its runtime dependencies into
 * the package for what is ~100 lines of writing.)
 */

const VARINT = 0;
const FIXED32 = 5;
const LENGTH_DELIMITED = 2;

const utf8 = new TextEncoder();

export class ProtoWriter {
  private buffer = new Uint8Array(256);
  private length = 0;

  private reserve(n: number): void {
    if (this.length + n <= this.buffer.length) return;
    const next = new Uint8Array(Math.max(this.buffer.length * 2, this.length + n));
    next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
  }

  private byte(b: number): void {
    this.reserve(1);
    this.buffer[this.length++] = b;
  }

  /** An unsigned or two's-complement varint (int64 fields: negative numbers take 10 bytes). */
  private varint(value: number | bigint): void {
    let v = BigInt.asUintN(64, BigInt(value));
    if (v < 0x80n) {
      this.byte(Number(v));
      return;
    }
    while (v >= 0x80n) {
      this.byte(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    this.byte(Number(v));
  }

  private tag(field: number, wireType: number): void {
    this.varint((field << 3) | wireType);
  }

  private bytesRaw(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
  }

  int(field: number, value: number | bigint | undefined): this {
    if (value === undefined) return this;
    this.tag(field, VARINT);
    this.varint(value);
    return this;
  }

  float(field: number, value: number | undefined): this {
    if (value === undefined) return this;
    this.tag(field, FIXED32);
    this.reserve(4);
    new DataView(this.buffer.buffer).setFloat32(this.length, value, true);
    this.length += 4;
    return this;
  }

  bytes(field: number, value: Uint8Array | undefined): this {
    if (value === undefined) return this;
    this.tag(field, LENGTH_DELIMITED);
    this.varint(value.length);
    this.bytesRaw(value);
    return this;
  }

  string(field: number, value: string | undefined): this {
    return value === undefined ? this : this.bytes(field, utf8.encode(value));
  }

  strings(field: number, values: readonly string[] | undefined): this {
    for (const v of values ?? []) this.string(field, v);
    return this;
  }

  /** A packed repeated varint field. */
  packedInts(field: number, values: readonly (number | bigint)[] | undefined): this {
    if (values === undefined || values.length === 0) return this;
    const inner = new ProtoWriter();
    for (const v of values) inner.varint(v);
    return this.bytes(field, inner.finish());
  }

  /** A packed repeated float field. */
  packedFloats(field: number, values: readonly number[] | undefined): this {
    if (values === undefined || values.length === 0) return this;
    return this.bytes(field, new Uint8Array(new Float32Array(values).buffer));
  }

  message<T>(field: number, value: T | undefined, encode: (w: ProtoWriter, v: T) => void): this {
    if (value === undefined) return this;
    const inner = new ProtoWriter();
    encode(inner, value);
    return this.bytes(field, inner.finish());
  }

  messages<T>(field: number, values: readonly T[] | undefined, encode: (w: ProtoWriter, v: T) => void): this {
    for (const v of values ?? []) this.message(field, v, encode);
    return this;
  }

  finish(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }
}

