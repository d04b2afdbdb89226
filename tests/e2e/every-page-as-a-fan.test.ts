// Every page a fan opens, at a phone's width and a desktop's (support/every-page.ts).
import { walkEveryPage } from "./support/every-page.ts";

await walkEveryPage("fan");
