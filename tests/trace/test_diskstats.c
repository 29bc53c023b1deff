/*
 * test_diskstats.c - /proc/diskstats read and differenced
 * (trace/diskstats.c), and the device view built on it (join/disk.c):
 * lines as kernels of three ages write them, idle devices left out, the
 * difference over a window, and the probes' counts kept beside.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "trace/diskstats.h"
#include "join/disk.h"

/* 6.x: 17 fields, flushes in field 16 */
#define VDA_NEW "  254       0 vda 4149 12 66384 2101 7340 811 130560 9120 0 5230 11300 " \
		"0 0 0 0 220 79\n"
/* 4.18 .. 5.4: 15 fields, no flushes */
#define VDA_MID "  254       0 vda 10 0 80 4 20 0 160 9 0 12 13 0 0 0 0\n"
/* before 4.18: 11 fields */
#define SDA_OLD "   8       0 sda 1 2 3 4 5 6 7 8 9 10 11\n"

static void test_parse_line_ages(void **state)
{
	struct diskstat d;

	(void)state;
	assert_true(diskstat_parse(VDA_NEW, &d));
	assert_string_equal(d.name, "vda");
	assert_int_equal(d.reads, 4149);
	assert_int_equal(d.read_sectors, 66384);
	assert_int_equal(d.writes, 7340);
	assert_int_equal(d.write_sectors, 130560);
	assert_int_equal(d.io_ms, 5230);
	assert_int_equal(d.weighted_ms, 11300);
	assert_int_equal(d.flushes, 220);
	assert_true(diskstat_parse(VDA_MID, &d));
	assert_int_equal(d.writes, 20);
	assert_int_equal(d.flushes, 0);
	assert_true(diskstat_parse(SDA_OLD, &d));
	assert_int_equal(d.io_ms, 10);
	assert_int_equal(d.weighted_ms, 11);
	assert_false(diskstat_parse("  8 0 sda 1 2 3\n", &d));
	assert_false(diskstat_parse("garbage\n", &d));
	assert_false(diskstat_parse("", &d));
}

static void parse_text(const char *text, struct diskstats *s, int want)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");

	assert_non_null(f);
	assert_int_equal(diskstats_parse(f, s), want);
	fclose(f);
}

static void test_idle_devices_left_out(void **state)
{
	struct diskstats s;

	(void)state;
	parse_text("   7       0 loop0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n" VDA_NEW
		   " 254       1 vda1 4000 12 66000 2000 7000 800 130000 9000 0 5000 11000 "
		   "0 0 0 0 0 0\n", &s, 0);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.d[0].name, "vda");
	assert_string_equal(s.d[1].name, "vda1");
	parse_text("nothing here\n", &s, -1);
	assert_int_equal(s.n, 0);
}

static void test_delta_over_window(void **state)
{
	struct diskstats a, b, none = { .n = 0 };
	struct diskstat d;

	(void)state;
	parse_text(VDA_MID, &a, 0);
	parse_text(VDA_NEW SDA_OLD, &b, 0);
	assert_true(diskstats_delta(&a, &b, "vda", &d));
	assert_int_equal(d.reads, 4139);
	assert_int_equal(d.writes, 7320);
	assert_int_equal(d.read_sectors, 66304);
	assert_int_equal(d.io_ms, 5218);
	assert_int_equal(d.weighted_ms, 11287);
	assert_int_equal(d.flushes, 220);
	/* no I/O at the start (not listed then): its counters were 0 */
	assert_true(diskstats_delta(&a, &b, "sda", &d));
	assert_int_equal(d.reads, 1);
	/* gone at the end, or the start unread: no figures */
	assert_false(diskstats_delta(&b, &a, "sda", &d));
	assert_false(diskstats_delta(&none, &b, "vda", &d));
	/* a counter that went back (the device re-created): 0, not 2^64 */
	assert_true(diskstats_delta(&b, &a, "vda", &d));
	assert_int_equal(d.reads, 0);
}

/* The device view: diskstats' counts where the disk is in both readings,
 * the probes' beside them; a disk diskstats lacks keeps the probes'. */
static void test_device_view_from_diskstats(void **state)
{
	struct fct_disk_dev devs[2] = { { .name = "vda" }, { .name = "vdb" } };
	struct kview kv = { .groups = PG_MASK(PG_DISK), .machine_ns = 10000000000ull,
			    .disk_devs = devs, .ndisk_devs = 2 };
	struct disk_run o;

	(void)state;
	devs[0].ios[FCT_DISK_READ] = 4097;
	devs[0].ios[FCT_DISK_WRITE] = 7001;
	devs[0].busy_ns = 123;
	devs[1].ios[FCT_DISK_READ] = 5;
	parse_text(VDA_MID, &kv.disks_open, 0);
	parse_text(VDA_NEW, &kv.disks_close, 0);
	disk_build(&o, &kv);
	assert_int_equal(o.ndevs, 2);
	assert_string_equal(o.dev[0].name, "vda");
	assert_true(o.dev[0].from_diskstats);
	assert_int_equal(o.dev[0].reads, 4139);
	assert_int_equal(o.dev[0].read_bytes, 66304ull * 512);
	assert_int_equal(o.dev[0].probed_reads, 4097);
	assert_int_equal(o.dev[0].probed_writes, 7001);
	assert_int_equal(o.dev[0].busy_ns, 5218ull * 1000000);
	assert_int_equal(o.dev[0].queue_ns, 11287ull * 1000000);
	assert_float_equal(disk_queue_depth(&o, &o.dev[0]), 1.1287, 1e-9);
	assert_false(o.dev[1].from_diskstats);
	assert_int_equal(o.dev[1].reads, 5);
	assert_int_equal(o.dev[1].probed_reads, 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_line_ages),
		cmocka_unit_test(test_idle_devices_left_out),
		cmocka_unit_test(test_delta_over_window),
		cmocka_unit_test(test_device_view_from_diskstats),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
