// Screen views and the figures made of them.
/** The viewport's width class, as the browser reports it: the dashboard's device classes. */
export type DeviceClass = 'mobile' | 'tablet' | 'desktop'

/** One screen view as stored: nothing in it identifies a reader. */
export interface ScreenViewWrite {
	/** When it was received. */
	at: Date
	/**
	 * The site's day it was received on (in its time zone), yyyy-mm-dd: the day it counts for.
	 * Its UTC day when not given.
	 */
	day?: string
	/** The visitor hash of the day (app/features/privacy/visitor-hash.server.ts). */
	visitor: string
	/** The route's screen name, e.g. `articles`. */
	screen: string
	/** The path without its query string. */
	path: string
	title: string
	/** The page the reader came from within the site; '' on arrival. */
	previousPath: string
	/** The other site the reader arrived from, host only; '' for none. */
	referrerHost: string
	/** The `utm_*` parameters of the address (the `ref` parameter counts as a source). */
	utmSource: string
	utmMedium: string
	utmCampaign: string
	device: DeviceClass
	/** The primary language subtag, lower case (`fr`); '' when unknown. */
	language: string
}

/** UTC days, yyyy-mm-dd, both included. */
export interface DayRange {
	from: string
	to: string
}

export interface AnalyticsTotals {
	/** Sum of each day's distinct visitors (a visitor hash lasts one day). */
	visitors: number
	/** Screen views. */
	views: number
	/**
	 * Visits: runs of one visitor's views with no gap over 30 minutes (exactly 30 minutes still
	 * continues one), within a UTC day (a visitor hash lasts a day).
	 */
	visits: number
}

export interface AnalyticsDay extends AnalyticsTotals {
	day: string
}

/**
 * What a breakdown groups by. `views` counts screen views for page, article, device and
 * language; visits for entry, exit, referrer and campaign.
 */
export type AnalyticsDimension =
	| 'page'
	| 'article'
	| 'entry'
	| 'exit'
	| 'referrer'
	| 'campaign'
	| 'device'
	| 'language'

export interface AnalyticsRow {
	/**
	 * What the row is: [path] for pages, entries and exits; [path, latest title] for articles;
	 * [host] for referrers ('' = direct or unknown); [campaign, source, medium] for campaigns;
	 * [device class]; [language] ('' = unknown).
	 */
	values: string[]
	visitors: number
	views: number
}

export interface AnalyticsRepository {
	/** Stores a batch of screen views in one transaction (one disk sync for the lot). */
	record(views: ScreenViewWrite[]): Promise<void>
	/**
	 * Every day of the range, oldest first, zeros for days without views. Like every read of a
	 * range, throws a RangeError unless both ends are real days (yyyy-mm-dd) and from <= to.
	 */
	daily(range: DayRange): Promise<AnalyticsDay[]>
	totals(range: DayRange): Promise<AnalyticsTotals>
	/** The top `limit` rows, most visitors first (then most views, then values A–Z by code point). */
	breakdown(range: DayRange, dimension: AnalyticsDimension, limit: number): Promise<AnalyticsRow[]>
	/** Distinct visitors with a view at or after `since`. */
	activeVisitors(since: Date): Promise<number>
	/**
	 * Rolls every day before `beforeDay` that still has raw views into daily totals and deletes
	 * those views, a day per transaction. Every figure above is the same before and after. Safe
	 * to run from several instances at once: a day is rolled up once.
	 */
	rollUp(beforeDay: string): Promise<{ days: number; views: number }>
	/** Raw views stored (tests, operations). */
	countViews(): Promise<number>
}
