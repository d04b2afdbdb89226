import type { Database as Generated } from "./database.types";

// The schema as the app sees it: the generated `Database` type (npm run db:types), with what the
// generator cannot know from the catalog: columns a trigger fills in, which a client may leave out.

type Tables = Generated["public"]["Tables"];
type FilledByTrigger<Table extends keyof Tables, Column extends keyof Tables[Table]["Insert"]> = Omit<Tables[Table], "Insert"> & {
  Insert: Omit<Tables[Table]["Insert"], Column> & Partial<Pick<Tables[Table]["Insert"], Column>>;
};

export type Database = {
  public: Omit<Generated["public"], "Tables"> & {
    Tables: Omit<Tables, "comments"> & {
      // private.fill_artist_from_track sets the artist from the track.
      comments: FilledByTrigger<"comments", "artist_id">;
    };
  };
};
