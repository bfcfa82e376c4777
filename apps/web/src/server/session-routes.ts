import type { RuleEdit } from "@z-engine/engine";
import {
  HttpError,
  json,
  MAX_COMMAND_BODY,
  type Route,
  type RouteContext,
  readObject,
  stringField,
} from "./http-io.js";
import type { SessionHub } from "./session-hub.js";

// The routes of one open session's screens: each is one engine query (loaded on first use:
// the server listens before the engine's modules are in).
const engine = () => import("@z-engine/engine");

type Handler = (hub: SessionHub, ctx: RouteContext) => Promise<unknown>;

const LISTS = new Set(["allow", "ask", "deny"]);

function ruleEdit(body: Record<string, unknown>): RuleEdit {
  const action = body.action;
  const list = body.list;
  const file = body.file;
  if (action !== "add" && action !== "remove" && action !== "replace")
    throw new HttpError("badRequest", "action must be add, remove or replace");
  if (typeof list !== "string" || !LISTS.has(list))
    throw new HttpError("badRequest", "list must be allow, ask or deny");
  if (file !== "local" && file !== "project")
    throw new HttpError("badRequest", "file must be local or project");
  const newList = body.newList;
  if (newList !== undefined && (typeof newList !== "string" || !LISTS.has(newList)))
    throw new HttpError("badRequest", "newList must be allow, ask or deny");
  return {
    action,
    list: list as RuleEdit["list"],
    rule: stringField(body, "rule"),
    file,
    ...(action === "replace" ? { newRule: stringField(body, "newRule") } : {}),
    ...(newList ? { newList: newList as RuleEdit["list"] } : {}),
  };
}

function hunksOf(value: unknown): number[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((n) => Number.isInteger(n) && n >= 0))
    throw new HttpError("badRequest", "hunks must be a list of hunk numbers");
  return value as number[];
}

const HANDLERS: Array<[Route["method"], string, Handler]> = [
  [
    "GET",
    "status",
    async (hub, { params }) => (await engine()).sessionStatus(await hub.handle(params.id ?? "")),
  ],
  [
    "GET",
    "badge",
    async (hub, { params, url }) =>
      (await engine()).currentBadge(await hub.handle(params.id ?? ""), {
        filesChanged: url.searchParams.get("changed") === "1",
      }),
  ],
  [
    "GET",
    "changes",
    async (hub, { params, url }) => {
      const checkpointId = url.searchParams.get("checkpoint") || undefined;
      const untilCheckpointId = url.searchParams.get("until") || undefined;
      return (await engine())
        .sessionChanges(await hub.handle(params.id ?? ""), {
          ...(checkpointId ? { checkpointId } : {}),
          ...(untilCheckpointId ? { untilCheckpointId } : {}),
        })
        .catch((error: Error) => {
          throw new HttpError("badRequest", error.message);
        });
    },
  ],
  [
    "POST",
    "revert",
    async (hub, { params, request }) => {
      const body = await readObject(request);
      const hunks = hunksOf(body.hunks);
      const expectSha = typeof body.expectSha === "string" ? body.expectSha : undefined;
      return (await engine()).revertChange(await hub.handle(params.id ?? ""), {
        checkpointId: stringField(body, "checkpointId"),
        path: stringField(body, "path"),
        ...(hunks ? { hunks } : {}),
        ...(expectSha ? { expectSha } : {}),
      });
    },
  ],
  [
    "GET",
    "worktrees",
    async (hub, { params }) =>
      (await engine()).pendingAgentChanges(await hub.handle(params.id ?? "")),
  ],
  [
    "POST",
    "worktrees/:agentId",
    async (hub, { params, request }) => {
      const body = await readObject(request);
      if (typeof body.apply !== "boolean")
        throw new HttpError("badRequest", "give apply: true or false");
      return (await engine()).resolveAgentChanges(
        await hub.handle(params.id ?? ""),
        params.agentId ?? "",
        body.apply,
      );
    },
  ],
  [
    "GET",
    "agents",
    async (hub, { params }) => (await engine()).sessionAgentList(await hub.handle(params.id ?? "")),
  ],
  [
    "GET",
    "agents/:agentId",
    async (hub, { params }) =>
      (await engine())
        .agentHistory(await hub.handle(params.id ?? ""), params.agentId ?? "")
        .catch(() => {
          throw new HttpError(
            "notFound",
            `agent ${params.agentId} has no transcript in this session`,
          );
        }),
  ],
  [
    "POST",
    "agents/stop",
    async (hub, { params, request }) => {
      const body = await readObject(request);
      const target =
        typeof body.toolCallId === "string" && body.toolCallId
          ? { toolCallId: body.toolCallId }
          : { agentId: stringField(body, "agentId") };
      return (await engine()).stopAgent(await hub.handle(params.id ?? ""), target);
    },
  ],
  [
    "GET",
    "jobs/:jobId",
    async (hub, { params }) => {
      const view = (await engine()).jobOutput(
        await hub.handle(params.id ?? ""),
        params.jobId ?? "",
      );
      if (!view) throw new HttpError("notFound", `no job ${params.jobId} in this session`);
      return view;
    },
  ],
  [
    "GET",
    "context",
    async (hub, { params }) => (await engine()).contextReport(await hub.handle(params.id ?? "")),
  ],
  [
    "GET",
    "settings",
    async (hub, { params }) => (await engine()).settingsReport(await hub.handle(params.id ?? "")),
  ],
  [
    "POST",
    "rules",
    async (hub, { params, request }) =>
      (await engine()).editPermissionRule(
        await hub.handle(params.id ?? ""),
        ruleEdit(await readObject(request)),
      ),
  ],
  [
    "POST",
    "trust",
    async (hub, { params }) => ({ message: (await hub.trust(params.id ?? "")) ?? null }),
  ],
  [
    "GET",
    "trust",
    async (hub, { params }) => (await engine()).trustReport(await hub.handle(params.id ?? "")),
  ],
  [
    "GET",
    "models",
    async (hub, { params }) => (await engine()).modelChoices(await hub.handle(params.id ?? "")),
  ],
  ["GET", "slash", async (hub, { params }) => hub.commands(params.id ?? "")],
  [
    "POST",
    "commands",
    async (hub, { params, request }) => {
      const { parseEngineCommand } = await import("@z-engine/protocol");
      const parsed = parseEngineCommand(await readObject(request, MAX_COMMAND_BODY));
      if (!parsed.ok) throw new HttpError("badRequest", `not a command: ${parsed.error.message}`);
      return { turnId: (await hub.send(params.id ?? "", parsed.value)) ?? null };
    },
  ],
];

/** The session screens' routes under `/api/sessions/:id/`. */
export function sessionRoutes(hub: SessionHub): Route[] {
  return HANDLERS.map(([method, path, handler]) => ({
    method,
    pattern: `/api/sessions/:id/${path}`,
    handle: async (ctx) => {
      const value = await handler(hub, ctx);
      json(ctx.response, method === "POST" && path === "commands" ? 202 : 200, value);
    },
  }));
}
