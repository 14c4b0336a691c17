// swift-format-ignore-file
// The "Using it in a UI" article's code (Sources/Unidirectional/Unidirectional.docc/UsingItInAUI.md), compiled where
// SwiftUI exists (Apple platforms; on Linux the block is parsed only); Scripts/tests/test_doc_snippets.py checks that
// the article shows it verbatim. Not reformatted by swift-format, so that the article and this file stay the same text.
import Features
import Unidirectional

#if canImport(SwiftUI)
  import SwiftUI

  struct GalleryView: View {
    let store: MainActorStore<GalleryFeature.State, GalleryFeature.Action>

    var body: some View {
      List(store.scope(state: \.rows, action: GalleryFeature.Action.rowCase), id: \.id) { row in
        GalleryRowView(store: row)          // re-renders when this row changes, not the list
      }
      .sheet(isPresented: .constant(store.scope(state: \.destination?.upload, action: { .destination(.presented(.upload($0))) }) != nil)) {
        Text("Uploading…")
      }
    }
  }

  struct GalleryRowView: View {
    let store: MainActorStore<GalleryRowFeature.State, GalleryRowFeature.Action>
    var body: some View { Text(store.title) }
  }
#endif
