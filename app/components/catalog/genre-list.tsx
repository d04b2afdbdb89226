import { Badge } from "~/components/ui/badge";
import { cx } from "~/lib/ui/cx";

/** An artist's genres as a row of chips. */
export function GenreList({ genres, className }: { genres: string[]; className?: string }) {
  if (genres.length === 0) return null;
  return (
    <ul aria-label="Genres" className={cx("flex flex-wrap gap-1.5", className)}>
      {genres.map((genre) => (
        <li key={genre}>
          <Badge>{genre}</Badge>
        </li>
      ))}
    </ul>
  );
}
