// Share 3 of the unit stage's files (test/_stages.ts says why the stage runs them in shares).
import { unitShare } from "../_stages.ts";

const ROOT = new URL("../..", import.meta.url);
for (const file of unitShare(3, ROOT.pathname.replace(/\/$/, ""))) {
  await import(new URL(file, ROOT).href);
}
