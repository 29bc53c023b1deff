/* schema.c - the names of a thread's window bits (schema.h). */
#include <string.h>
#include "fctrace.h"
#include "base/schema.h"

const struct schema_how schema_hows[] = {
	{ FCT_HOW_MARK, "marks" }, { FCT_HOW_EXEC, "exec" }, { FCT_HOW_FORK, "created" },
	{ FCT_HOW_ATTACH, "attach" }, { FCT_HOW_EXITED, "exited" },
	{ FCT_HOW_CLOSED, "closed" }, { FCT_HOW_IN_FUTEX, "in_futex_at_attach" },
};
const unsigned schema_nhows = sizeof(schema_hows) / sizeof(*schema_hows);

uint32_t schema_how_bit(const char *name)
{
	for (unsigned i = 0; i < schema_nhows; i++)
		if (!strcmp(schema_hows[i].name, name))
			return schema_hows[i].bit;
	return 0;
}
