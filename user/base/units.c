/* units.c - human units shared by the table, the explanation and the HTML. */
#include <stdio.h>
#include "base/units.h"

char *units_ns(char *buf, size_t n, double ns)
{
	if (ns < 1e3)
		snprintf(buf, n, "%.0f ns", ns);
	else if (ns < 1e6)
		snprintf(buf, n, "%.*f µs", ns < 1e4 ? 2 : 1, ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, n, "%.*f ms", ns < 1e7 ? 2 : 1, ns / 1e6);
	else
		snprintf(buf, n, "%.2f s", ns / 1e9);
	return buf;
}

char *units_count(char *buf, size_t n, double v)
{
	if (v < 1e4)
		snprintf(buf, n, "%.0f", v);
	else if (v < 1e6)
		snprintf(buf, n, "%.1f k", v / 1e3);
	else if (v < 1e9)
		snprintf(buf, n, "%.2f M", v / 1e6);
	else
		snprintf(buf, n, "%.2f G", v / 1e9);
	return buf;
}

char *units_bytes(char *buf, size_t n, double b)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int i = 0;

	while (b >= 1024 && i < 4) {
		b /= 1024;
		i++;
	}
	snprintf(buf, n, i && b < 10 ? "%.1f %s" : "%.0f %s", b, unit[i]);
	return buf;
}

const char *units_plural(double n)
{
	return n == 1 ? "" : "s";
}

char *units_pct(char *buf, size_t n, double ratio)
{
	double p = ratio * 100;

	snprintf(buf, n, p != 0 && p < 1 && p > -1 ? "%.2f %%" : "%.1f %%", p);
	return buf;
}
