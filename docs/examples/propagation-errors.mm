model broken "a model with propagation mistakes (docs/model-language.md)"
reorder {
        R   W
    R   i   di
    W   Y   Y
}

propagation sideways

fence sync orders M * M cumulative strong cost 3
