// Writes a logistic-regression model as an ONNX file, encoding the protobuf by hand (no
// onnx package): input "features" float[batch, dim] -> MatMul(W[dim,1]) -> Add(b[1]) ->
// Sigmoid -> output "score" float[batch, 1]. Field numbers are those of onnx.proto3.

type Field = Uint8Array;

function varint(value: number | bigint): number[] {
  let v = BigInt(value);
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
}

const concat = (parts: readonly Field[]): Field => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/** A varint field (wire type 0). */
const int = (field: number, value: number | bigint): Field =>
  Uint8Array.from([...varint(field << 3), ...varint(value)]);

/** A length-delimited field (wire type 2): bytes, a string or an embedded message. */
const bytes = (field: number, payload: Field | string): Field => {
  const body = typeof payload === "string" ? new TextEncoder().encode(payload) : payload;
  return concat([Uint8Array.from([...varint((field << 3) | 2), ...varint(body.length)]), body]);
};

const FLOAT = 1;

/** TensorProto: dims (1), data_type (2), name (8), raw_data (9, little-endian floats). */
function tensor(name: string, dims: readonly number[], data: Float32Array): Field {
  const raw = new Uint8Array(data.length * 4);
  const view = new DataView(raw.buffer);
  for (let i = 0; i < data.length; i++) view.setFloat32(i * 4, data[i] as number, true);
  return concat([...dims.map((d) => int(1, d)), int(2, FLOAT), bytes(8, name), bytes(9, raw)]);
}

/** ValueInfoProto with a float tensor type; a string dim is symbolic (dim_param). */
function valueInfo(name: string, dims: readonly (number | string)[]): Field {
  const shape = concat(dims.map((d) => bytes(1, typeof d === "number" ? int(1, d) : bytes(2, d))));
  const tensorType = concat([int(1, FLOAT), bytes(2, shape)]);
  return concat([bytes(1, name), bytes(2, bytes(1, tensorType))]);
}

/** NodeProto: input (1), output (2), name (3), op_type (4). */
function node(op: string, inputs: readonly string[], output: string): Field {
  return concat([
    ...inputs.map((i) => bytes(1, i)),
    bytes(2, output),
    bytes(3, `${op.toLowerCase()}_0`),
    bytes(4, op),
  ]);
}

/** The bytes of an ONNX model scoring `sigmoid(features · weights + bias)`. */
export function logisticRegressionOnnx(
  weights: Float32Array,
  bias: number,
  name: string,
): Uint8Array {
  const dim = weights.length;
  const graph = concat([
    bytes(1, node("MatMul", ["features", "W"], "logit0")),
    bytes(1, node("Add", ["logit0", "b"], "logit")),
    bytes(1, node("Sigmoid", ["logit"], "score")),
    bytes(2, name),
    bytes(5, tensor("W", [dim, 1], weights)),
    bytes(5, tensor("b", [1], Float32Array.of(bias))),
    bytes(11, valueInfo("features", ["batch", dim])),
    bytes(12, valueInfo("score", ["batch", 1])),
  ]);
  const opset = concat([bytes(1, ""), int(2, 13)]);
  return concat([
    int(1, 8), // ir_version
    bytes(2, "z-engine"), // producer_name
    bytes(7, graph),
    bytes(8, opset),
  ]);
}
