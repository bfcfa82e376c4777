import type { Message, MessageId, ToolCallId } from "@z-engine/protocol";
import { logRecord, type Session, type SessionStore, StoreError } from "@z-engine/store";
import type * as Vitest from "vitest";

/** A store for `runStoreConformance` to test, and what it can do besides the contract. */
export interface StoreUnderTest {
  readonly store: SessionStore;
  /** The same sessions seen by a new store object, as after a restart (default: `store`). */
  reopen?(): SessionStore | Promise<SessionStore>;
  /**
   * Leaves a half-written record at the end of a closed session's log, as a crash in the
   * middle of an append would. Give it when the store can be torn (files); the suite then
   * checks that open repairs it, reports it, and loses nothing else.
   */
  tearLastRecord?(sessionId: string): Promise<void>;
  /** Removes what the store left (temp folders). */
  dispose?(): Promise<void>;
}

/** The part of vitest the suite uses (loaded on demand). */
export type Api = Pick<typeof Vitest, "describe" | "it" | "expect" | "afterEach">;

/** What each conformance case uses: vitest's `it` and `expect`, and the store under test. */
export interface Conformance {
  readonly it: Api["it"];
  readonly expect: Api["expect"];
  /** A fresh store for this test (disposed after it). */
  subject(): Promise<StoreUnderTest>;
  /** Closes `session` after the test, whatever happens. */
  track<S extends Session>(session: S): S;
  /** The store as after a restart (its `reopen`, or the same store). */
  reopened(s: StoreUnderTest): Promise<SessionStore>;
  /** The `StoreError` code `promise` rejects with ("resolved" if it does not reject). */
  errorCode(promise: Promise<unknown>): Promise<string>;
}

/** The cases' context over `factory`; registers the clean-up after each test. */
export function conformance(
  api: Api,
  factory: () => StoreUnderTest | Promise<StoreUnderTest>,
): Conformance {
  const { it, expect, afterEach } = api;
  let current: StoreUnderTest | undefined;
  const open: Session[] = [];
  const subject = async () => {
    current = await factory();
    return current;
  };
  const track = <S extends Session>(session: S) => {
    open.push(session);
    return session;
  };
  const reopened = async (s: StoreUnderTest) => (s.reopen ? await s.reopen() : s.store);
  afterEach(async () => {
    for (const session of open.splice(0)) await session.close().catch(() => {});
    await current?.dispose?.();
    current = undefined;
  });
  const errorCode = async (promise: Promise<unknown>) => {
    try {
      await promise;
    } catch (error) {
      return error instanceof StoreError ? error.code : `not a StoreError: ${String(error)}`;
    }
    return "resolved";
  };
  return { it, expect, subject, track, reopened, errorCode };
}

export const mid = (s: string) => s as MessageId;
export const cid = (s: string) => s as ToolCallId;
export const user = (id: string, text: string): Message => ({
  id: mid(id),
  role: "user",
  content: [{ type: "text", text }],
});
export const call = (id: string, callId: string): Message => ({
  id: mid(id),
  role: "assistant",
  content: [{ type: "toolUse", id: cid(callId), name: "Read", input: { file_path: "/a" } }],
});
export const result = (id: string, callId: string, text: string): Message => ({
  id: mid(id),
  role: "user",
  content: [
    {
      type: "toolResult",
      toolUseId: cid(callId),
      content: [{ type: "text", text }],
      isError: false,
    },
  ],
});
export const msg = (message: Message) => logRecord("message", { message });
export const ids = (messages: readonly Message[]) => messages.map((m) => m.id as string);
export const usage = (costUsd: number) => ({
  input: 1,
  output: 1,
  cacheRead: 0,
  cacheWrite: 0,
  costUsd,
});
