import { analyticsPeriod, defaultAnalyticsPeriod } from "../../../supabase/functions/_shared/analytics";

/**
 * The period the Admin Dashboard's figures (money, tax collected, and the tax CSV) are over, as its address
 * names it (`?figures=7d`, as analytics names periods); 30 days unless another is asked for.
 */
export const figuresPeriodOf = (url: URL) => analyticsPeriod(url.searchParams.get("figures")) ?? analyticsPeriod(defaultAnalyticsPeriod)!;
