/**
 * A GGUF (version 3) writer for tests: metadata key/values and tensors, laid out as ggml's
 * `docs/gguf.md` describes — header (`GGUF`, version, tensor count, key/value count), the
 * key/values, the tensor infos (name, dimensions innermost first, type, offset into the data
 * section), padding to `general.alignment` (32), then each tensor's bytes, each at an aligned
 * offset. Little-endian throughout; strings are a u64 byte length and UTF-8 bytes.
 */

/** A metadata value with its GGUF type spelled out (numbers are ambiguous otherwise). */
export type GgufValue =
  | { type: 'u32'; value: number }
  | { type: 'i32'; value: number }
  | { type: 'f32'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'string'; value: string }
  | { type: 'string[]'; value: readonly string[] }
  | { type: 'i32[]'; value: readonly number[] }
  | { type: 'f32[]'; value: readonly number[] };

export interface GgufTensor {
  name: string;
  /** ggml order: `dims[0]` is the row length (the innermost dimension). */
  dims: readonly number[];
  /** F32 data, `dims` multiplied out. */
  data: Float32Array;
}

const ALIGNMENT = 32;

/** GGUF value type ids (gguf-py `GGUFValueType`). */
const TYPE = { u32: 4, i32: 5, f32: 6, bool: 7, string: 8, array: 9 } as const;
/** ggml tensor type id of F32. */
const GGML_F32 = 0;

class ByteWriter {
  private chunks: Buffer[] = [];
  length = 0;

  push(buffer: Buffer): void {
    this.chunks.push(buffer);
    this.length += buffer.length;
  }
  u32(value: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(value);
    this.push(b);
  }
  i32(value: number): void {
    const b = Buffer.alloc(4);
    b.writeInt32LE(value);
    this.push(b);
  }
  u64(value: number): void {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(value));
    this.push(b);
  }
  f32(value: number): void {
    const b = Buffer.alloc(4);
    b.writeFloatLE(value);
    this.push(b);
  }
  string(value: string): void {
    const bytes = Buffer.from(value, 'utf8');
    this.u64(bytes.length);
    this.push(bytes);
  }
  pad(): void {
    const rest = (ALIGNMENT - (this.length % ALIGNMENT)) % ALIGNMENT;
    if (rest > 0) this.push(Buffer.alloc(rest));
  }
  toBuffer(): Buffer {
    return Buffer.concat(this.chunks, this.length);
  }
}

function writeValue(out: ByteWriter, value: GgufValue): void {
  switch (value.type) {
    case 'u32':
      out.u32(TYPE.u32);
      return out.u32(value.value);
    case 'i32':
      out.u32(TYPE.i32);
      return out.i32(value.value);
    case 'f32':
      out.u32(TYPE.f32);
      return out.f32(value.value);
    case 'bool':
      out.u32(TYPE.bool);
      return out.push(Buffer.from([value.value ? 1 : 0]));
    case 'string':
      out.u32(TYPE.string);
      return out.string(value.value);
    case 'string[]':
      out.u32(TYPE.array);
      out.u32(TYPE.string);
      out.u64(value.value.length);
      for (const item of value.value) out.string(item);
      return;
    case 'i32[]':
      out.u32(TYPE.array);
      out.u32(TYPE.i32);
      out.u64(value.value.length);
      for (const item of value.value) out.i32(item);
      return;
    case 'f32[]':
      out.u32(TYPE.array);
      out.u32(TYPE.f32);
      out.u64(value.value.length);
      for (const item of value.value) out.f32(item);
      return;
  }
}

/** The whole file as bytes. */
export function encodeGguf(metadata: Readonly<Record<string, GgufValue>>, tensors: readonly GgufTensor[]): Buffer {
  const out = new ByteWriter();
  out.push(Buffer.from('GGUF', 'latin1'));
  out.u32(3);
  out.u64(tensors.length);
  const entries = Object.entries(metadata);
  out.u64(entries.length);
  for (const [key, value] of entries) {
    out.string(key);
    writeValue(out, value);
  }
  let offset = 0;
  for (const tensor of tensors) {
    const count = tensor.dims.reduce((a, b) => a * b, 1);
    if (count !== tensor.data.length) throw new Error(`tensor ${tensor.name}: ${tensor.data.length} values for dims ${tensor.dims.join('×')}`);
    out.string(tensor.name);
    out.u32(tensor.dims.length);
    for (const dim of tensor.dims) out.u64(dim);
    out.u32(GGML_F32);
    out.u64(offset);
    offset += Math.ceil((count * 4) / ALIGNMENT) * ALIGNMENT;
  }
  out.pad();
  for (const tensor of tensors) {
    out.push(Buffer.from(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength));
    out.pad();
  }
  return out.toBuffer();
}
