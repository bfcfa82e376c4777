import { runStoreConformance } from "@z-engine/testkit";
import { describe } from "vitest";
import { createPostgresStore } from "./index.js";
import { dropSchema, freshSchema, postgresSkip, postgresUrl } from "./test-support/postgres.js";

if (postgresUrl === null) describe.skip(`PostgresSessionStore (${postgresSkip})`, () => {});
else
  await runStoreConformance("PostgresSessionStore", async () => {
    const schema = freshSchema();
    const options = { connectionString: postgresUrl ?? "", schema, max: 4 };
    const stores = [await createPostgresStore(options)];
    return {
      store: stores[0] as NonNullable<(typeof stores)[0]>,
      reopen: async () => {
        const again = await createPostgresStore(options);
        stores.push(again);
        return again;
      },
      dispose: async () => {
        for (const store of stores) await store.close();
        await dropSchema(schema);
      },
    };
  });
