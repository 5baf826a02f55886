#include <gtk/gtk.h>
#include <webkit2/webkit2.h>
#include <jsc/jsc.h>
#include <malloc.h>

/* Swift cannot call C variadic functions: these wrap the ones this package needs. */

/* A web context with its own website data manager: its data (local storage, IndexedDB, caches …) under data_dir and
   cache_dir and its cookies in cookie_file (SQLite), or, when data_dir is NULL, an ephemeral one that keeps nothing
   on disk. The caller owns the returned reference. */
static inline WebKitWebContext *webcmp_web_context_new(const char *data_dir, const char *cache_dir,
                                                       const char *cookie_file) {
    WebKitWebsiteDataManager *manager = data_dir
        ? webkit_website_data_manager_new("base-data-directory", data_dir, "base-cache-directory", cache_dir, NULL)
        : webkit_website_data_manager_new_ephemeral();
    if (data_dir && cookie_file) {
        webkit_cookie_manager_set_persistent_storage(webkit_website_data_manager_get_cookie_manager(manager),
                                                     cookie_file, WEBKIT_COOKIE_PERSISTENT_STORAGE_SQLITE);
    }
    WebKitWebContext *context = webkit_web_context_new_with_website_data_manager(manager);
    g_object_unref(manager);
    return context;
}

/* A web view in the given context with the given user content manager (a floating reference, like
   webkit_web_view_new_with_user_content_manager). */
static inline GtkWidget *webcmp_web_view_new(WebKitWebContext *context, WebKitUserContentManager *content_manager) {
    return GTK_WIDGET(g_object_new(WEBKIT_TYPE_WEB_VIEW, "web-context", context,
                                   "user-content-manager", content_manager, NULL));
}

/* Whether GTK asks applications for the dark variant of the theme (GtkSettings "gtk-application-prefer-dark-theme").
   WebKitGTK takes a web view's appearance from it: pages then match `prefers-color-scheme: dark`. */
static inline void webcmp_set_prefers_dark_theme(gboolean dark) {
    GtkSettings *settings = gtk_settings_get_default();
    if (settings) {
        g_object_set(settings, "gtk-application-prefer-dark-theme", dark, NULL);
    }
}
