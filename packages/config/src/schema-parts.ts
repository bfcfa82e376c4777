import { once } from "@z-engine/protocol";
import { z } from "zod";

/** The settings schemas' small parts, each built on first use. */
export const text = once(() => z.string().min(1));
export const stringList = once(() => z.array(text()));
export const stringMap = once(() => z.record(z.string(), z.string()));
export const httpUrl = once(() => z.url({ protocol: /^https?$/ }));
