import type { D1Migration } from "cloudflare:test";
import type { Bindings } from "../src/env";

declare global {
  namespace Cloudflare {
    interface Env extends Bindings {
      /** The directory's migrations (migrations/), and the list databases' (migrations-lists/). */
      TEST_MIGRATIONS: D1Migration[];
      TEST_LIST_MIGRATIONS: D1Migration[];
    }
    interface GlobalProps {
      mainModule: typeof import("../src/index");
    }
  }
}

