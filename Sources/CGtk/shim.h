// GTK 4 for Swift. GTK 4.8 only: no GtkFileDialog, no gtk_widget_get_color.
#ifndef HARK_CGTK_SHIM_H
#define HARK_CGTK_SHIM_H
#include <gtk/gtk.h>

static inline GtkWidget *hark_widget(gpointer instance) { return GTK_WIDGET(instance); }
static inline GtkWindow *hark_window(gpointer instance) { return GTK_WINDOW(instance); }
static inline GtkBox *hark_box(gpointer instance) { return GTK_BOX(instance); }
static inline GtkLabel *hark_label(gpointer instance) { return GTK_LABEL(instance); }
static inline GtkButton *hark_button(gpointer instance) { return GTK_BUTTON(instance); }
static inline GtkImage *hark_image(gpointer instance) { return GTK_IMAGE(instance); }
static inline GtkDrawingArea *hark_drawing_area(gpointer instance) { return GTK_DRAWING_AREA(instance); }
static inline GtkApplication *hark_gtk_application(gpointer instance) { return GTK_APPLICATION(instance); }
/* gtk_accessible_update_property is variadic. */
static inline void hark_accessible_set_label(gpointer accessible, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(accessible), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}
/* A button named by its words alone: GTK 4.8 names a button by the label it
   is labelled by and by its label property together ("Cancel Cancel"), and
   by the label's raw text when it has a mnemonic ("_Undo"). */
static inline void hark_accessible_name_button(gpointer button, const char *words) {
    gtk_accessible_reset_relation(GTK_ACCESSIBLE(button), GTK_ACCESSIBLE_RELATION_LABELLED_BY);
    gtk_accessible_update_property(GTK_ACCESSIBLE(button), GTK_ACCESSIBLE_PROPERTY_LABEL, words, -1);
}
static inline void hark_accessible_set_description(gpointer accessible, const char *description) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(accessible), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
}
static inline void hark_accessible_set_value_text(gpointer accessible, const char *text) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(accessible), GTK_ACCESSIBLE_PROPERTY_VALUE_TEXT, text, -1);
}
/* A slider-like widget of our own: its range and value, for a screen reader. */
static inline void hark_accessible_set_range(gpointer accessible, double minimum, double maximum, double now) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(accessible), GTK_ACCESSIBLE_PROPERTY_VALUE_MIN, minimum,
                                   GTK_ACCESSIBLE_PROPERTY_VALUE_MAX, maximum, GTK_ACCESSIBLE_PROPERTY_VALUE_NOW, now, -1);
}
/* For tests (gtk_test_accessible_check_property is variadic): NULL when a
   string property holds `expected`, else what it holds (to be freed). */
static inline char *hark_accessible_check_string(gpointer accessible, GtkAccessibleProperty property,
                                                 const char *expected) {
    return gtk_test_accessible_check_property(GTK_ACCESSIBLE(accessible), property, expected);
}
/* Only before anything reads the widget's accessible (right after creating
   it): GTK refuses to change the role of an accessible already realized. */
static inline void hark_accessible_set_role(gpointer widget, GtkAccessibleRole role) {
    g_object_set(G_OBJECT(widget), "accessible-role", role, NULL);
}
static inline GtkRange *hark_range(gpointer instance) { return GTK_RANGE(instance); }
static inline GtkOverlay *hark_overlay(gpointer instance) { return GTK_OVERLAY(instance); }

static inline gboolean hark_is_widget(gpointer instance) { return GTK_IS_WIDGET(instance); }
/* A file chooser dialog with its buttons in a header bar, as GNOME shows
 * dialogs (gtk_file_chooser_dialog_new is variadic and follows a setting):
 * Cancel and one accepting button, which Enter in the name field activates. */
static inline GtkWidget *hark_file_chooser_dialog_new(const char *title, GtkWindow *parent, GtkFileChooserAction action,
                                                      const char *cancel_label, const char *accept_label) {
    GtkWidget *dialog = g_object_new(GTK_TYPE_FILE_CHOOSER_DIALOG, "title", title, "transient-for", parent,
                                     "action", action, "use-header-bar", TRUE, NULL);
    gtk_dialog_add_button(GTK_DIALOG(dialog), cancel_label, GTK_RESPONSE_CANCEL);
    gtk_dialog_add_button(GTK_DIALOG(dialog), accept_label, GTK_RESPONSE_ACCEPT);
    gtk_dialog_set_default_response(GTK_DIALOG(dialog), GTK_RESPONSE_ACCEPT);
    return dialog;
}
static inline GtkFileChooser *hark_file_chooser(gpointer instance) { return GTK_FILE_CHOOSER(instance); }

#endif
