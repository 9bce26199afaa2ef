/* bare_libical.c: the lower baseline of Scripts/bench-ingest.
 *
 * Reads FILE whole, hands it to libical's parser in one call
 * (icalparser_parse_string) and frees the tree (icalcomponent_free): the least
 * any libical-based reader of that file has to do, with no time zone, no
 * recurrence expansion and no output. Compiled at bench time into the cache
 * directory with `cc $(pkg-config --cflags --libs libical)`.
 *
 * Prints the number of VEVENTs libical found (stdout), so that a run that
 * parsed nothing cannot pass for a fast one. Exit status: 0 ok, 2 unreadable
 * file, 3 libical returned no component.
 */
#include <libical/ical.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: bare_libical FILE\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (f == NULL) { perror(argv[1]); return 2; }
    if (fseek(f, 0, SEEK_END) != 0) { perror(argv[1]); return 2; }
    long size = ftell(f);
    if (size < 0 || fseek(f, 0, SEEK_SET) != 0) { perror(argv[1]); return 2; }
    char *text = malloc((size_t)size + 1);
    if (text == NULL) { fprintf(stderr, "out of memory\n"); return 2; }
    if (fread(text, 1, (size_t)size, f) != (size_t)size) { perror(argv[1]); return 2; }
    fclose(f);
    text[size] = '\0';

    icalcomponent *root = icalparser_parse_string(text);
    if (root == NULL) { fprintf(stderr, "libical found no component\n"); return 3; }
    int events = 0;
    icalcomponent *calendar = root;
    if (icalcomponent_isa(root) == ICAL_XROOT_COMPONENT) {
        calendar = icalcomponent_get_first_component(root, ICAL_VCALENDAR_COMPONENT);
    }
    for (; calendar != NULL;
         calendar = icalcomponent_isa(root) == ICAL_XROOT_COMPONENT
             ? icalcomponent_get_next_component(root, ICAL_VCALENDAR_COMPONENT) : NULL) {
        events += icalcomponent_count_components(calendar, ICAL_VEVENT_COMPONENT);
    }
    icalcomponent_free(root);
    free(text);
    printf("%d\n", events);
    return 0;
}
