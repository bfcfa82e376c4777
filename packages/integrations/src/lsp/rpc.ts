import type { ChildProcess } from "node:child_process";
import type { ProtocolConnection } from "vscode-languageserver-protocol/node";

type RpcModule = typeof import("vscode-languageserver-protocol/node");

let loading: Promise<RpcModule> | undefined;

/** Loads vscode-languageserver-protocol on first use only (start-up pays nothing for it). */
export function loadRpc(): Promise<RpcModule> {
  loading ??= import("vscode-languageserver-protocol/node").then(
    (m) => ((m as { default?: RpcModule }).default ?? m) as RpcModule,
  );
  return loading;
}

/** A JSON-RPC connection over a child's stdio, listening. */
export async function connectTo(child: ChildProcess): Promise<ProtocolConnection> {
  const rpc = await loadRpc();
  if (!child.stdout || !child.stdin) throw new Error("the server has no stdio pipes");
  const connection = rpc.createProtocolConnection(
    new rpc.StreamMessageReader(child.stdout),
    new rpc.StreamMessageWriter(child.stdin),
  );
  connection.listen();
  return connection;
}
