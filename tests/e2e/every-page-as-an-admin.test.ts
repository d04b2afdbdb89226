// Every page an administrator opens, at a phone's width and a desktop's (support/every-page.ts).
import { walkEveryPage } from "./support/every-page.ts";

await walkEveryPage("admin");
